#include "scrollbench.h"

#include "benchtext.h"
#include "eventlistmodel.h"
#include "healthmonitor.h"
#include "mainwindow.h"

#include <QApplication>
#include <QFile>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTableView>
#include <algorithm>

namespace {

constexpr int Edge = 100; // page fetches summarised at each end of the scroll

double percentile(QList<double> values, double p)
{
    if (values.isEmpty())
        return 0;
    std::sort(values.begin(), values.end());
    return values.at(std::min<qsizetype>(values.size() - 1, qsizetype(p * double(values.size()))));
}

double maximum(const QList<double> &values)
{
    return values.isEmpty() ? 0 : *std::max_element(values.cbegin(), values.cend());
}

// "VmRSS" or "VmHWM" of this process, in kB.
qint64 memoryKb(const QString &field)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    const QRegularExpression line(
        QStringLiteral("^%1:\\s+(\\d+) kB$").arg(field), QRegularExpression::MultilineOption);
    const QRegularExpressionMatch match = line.match(QString::fromLatin1(status.readAll()));
    return match.hasMatch() ? match.captured(1).toLongLong() : -1;
}

} // namespace

ScrollBench::ScrollBench(
    MainWindow *window, int pages, int idleMs, const QString &reportPath, QObject *parent)
    : QObject(parent)
    , m_window(window)
    , m_pages(pages)
    , m_idleMs(idleMs)
    , m_reportPath(reportPath)
{
    m_heartbeat.setTimerType(Qt::PreciseTimer);
    m_heartbeat.setInterval(BenchText::HeartbeatMs);
    connect(&m_heartbeat, &QTimer::timeout, this, &ScrollBench::beat);
    m_stepper.setInterval(0); // one page whenever the event loop is free: painting goes between
    connect(&m_stepper, &QTimer::timeout, this, &ScrollBench::step);
}

void ScrollBench::start()
{
    if (!m_window) {
        QApplication::exit(2);
        return;
    }
    connect(m_window->monitor(), &HealthMonitor::snapshotChanged, this,
        [this](const HealthSnapshot &snapshot) {
            ++m_snapshots;
            m_lastSnapshotQueryMs = snapshot.queryMs;
            // How old the figures shown got before this one replaced them.
            const qint64 now = m_clock.elapsed();
            if (m_snapshots > 1)
                m_maxSnapshotGapMs = std::max(m_maxSnapshotGapMs, now - m_lastSnapshotAtMs);
            m_lastSnapshotAtMs = now;
        });
    m_clock.start();
    m_lastBeatNs = m_clock.nsecsElapsed();
    m_heartbeat.start();
    QTimer::singleShot(m_idleMs, this, &ScrollBench::startScrolling);
}

void ScrollBench::beat()
{
    const qint64 now = m_clock.nsecsElapsed();
    (m_scrolling ? m_scrollGapsMs : m_idleGapsMs) << double(now - m_lastBeatNs) / 1e6;
    m_lastBeatNs = now;
}

void ScrollBench::startScrolling()
{
    if (!m_window) {
        QApplication::exit(2);
        return;
    }
    EventListModel *model = m_window->eventModel();
    QElapsedTimer timer;
    timer.start();
    model->setFilter(model->filter()); // the first page, as a filter change loads it
    m_firstPageMs = double(timer.nsecsElapsed()) / 1e6;
    m_scrolling = true;
    if (m_pages > 0)
        m_stepper.start();
    else
        finish();
}

void ScrollBench::step()
{
    if (!m_window) {
        finish();
        return;
    }
    EventListModel *model = m_window->eventModel();
    QScrollBar *bar = m_window->eventView()->verticalScrollBar();
    const QString lastBefore = model->eventIdAt(model->rowCount() - 1);
    QElapsedTimer timer;
    timer.start();
    bar->setValue(bar->maximum()); // the view fetches more at the bottom, as a user's scroll does
    const double ms = double(timer.nsecsElapsed()) / 1e6;
    if (model->eventIdAt(model->rowCount() - 1) != lastBefore)
        m_fetchMs << ms;
    else if (!model->canFetchMore({}) && bar->value() == bar->maximum())
        m_pages = int(m_fetchMs.size()); // the end of the table
    if (m_fetchMs.size() >= m_pages)
        finish();
}

void ScrollBench::finish()
{
    m_stepper.stop();
    m_heartbeat.stop();
    QFile file(m_reportPath);
    const bool written = file.open(QIODevice::WriteOnly | QIODevice::Truncate)
        && file.write(report().toUtf8() + '\n') > 0;
    file.close();
    QApplication::exit(written ? 0 : 2);
}

QString ScrollBench::report() const
{
    const QList<double> first = m_fetchMs.mid(0, Edge);
    const QList<double> last = m_fetchMs.mid(std::max<qsizetype>(0, m_fetchMs.size() - Edge));
    const int rows = m_window ? m_window->eventModel()->rowCount() : -1;
    return QStringLiteral(
        "{\"pages\":%1,\"rows_held\":%2,\"first_page_ms\":%3,\"fetch_p95_first_ms\":%4,"
        "\"fetch_p95_last_ms\":%5,\"fetch_max_ms\":%6,\"idle_max_gap_ms\":%7,"
        "\"scroll_max_gap_ms\":%8,\"scroll_p99_gap_ms\":%9,\"heartbeats\":%10,\"snapshots\":%11,"
        "\"last_snapshot_query_ms\":%12,\"rss_kb\":%13,\"hwm_kb\":%14,"
        "\"snapshot_max_gap_ms\":%15}")
        .arg(m_fetchMs.size())
        .arg(rows)
        .arg(BenchText::number(m_firstPageMs), BenchText::number(percentile(first, 0.95)),
            BenchText::number(percentile(last, 0.95)), BenchText::number(maximum(m_fetchMs)),
            BenchText::number(maximum(m_idleGapsMs)), BenchText::number(maximum(m_scrollGapsMs)),
            BenchText::number(percentile(m_scrollGapsMs, 0.99)))
        .arg(m_idleGapsMs.size() + m_scrollGapsMs.size())
        .arg(m_snapshots)
        .arg(m_lastSnapshotQueryMs)
        .arg(memoryKb(QStringLiteral("VmRSS")))
        .arg(memoryKb(QStringLiteral("VmHWM")))
        .arg(m_maxSnapshotGapMs);
}
