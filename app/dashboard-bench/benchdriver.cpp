#include "benchdriver.h"

#include "benchtext.h"
#include "eventlistmodel.h"
#include "filterbar.h"
#include "healthmonitor.h"
#include "mainwindow.h"
#include "operatoractions.h"

#include <QApplication>
#include <QDateTime>
#include <QFile>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMouseEvent>
#include <QTableView>
#include <functional>
#include <memory>

namespace {

constexpr qint64 GeneratedWeekMs = 7 * 86400000LL; // outboxctl generate spreads events over it

// --- The window's surface the driver touches (what a user touches). Adapt here when the
// --- window changes; nothing else in this file knows the window's insides.

QLineEdit *searchField(MainWindow *window)
{
    return window->findChild<QLineEdit *>(QStringLiteral("searchFilter"));
}

QLineEdit *payloadField(MainWindow *window)
{
    return window->findChild<QLineEdit *>(QStringLiteral("payloadFilter"));
}

QAbstractItemModel *tableModel(MainWindow *window)
{
    return window->eventView()->model(); // what the view shows, behind any proxy
}

int typeColumn(const QAbstractItemModel *model)
{
    for (int column = 0; column < model->columnCount(); ++column) {
        if (model->headerData(column, Qt::Horizontal).toString() == QLatin1String("Type"))
            return column;
    }
    return EventListModel::TypeColumn;
}

// A left click on a header section, as the mouse delivers it.
void clickHeader(QHeaderView *header, int section)
{
    const QPoint at(header->sectionViewportPosition(section) + header->sectionSize(section) / 2,
        header->height() / 2);
    const QPoint global = header->viewport()->mapToGlobal(at);
    QMouseEvent press(
        QEvent::MouseButtonPress, at, global, Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(header->viewport(), &press);
    QMouseEvent release(
        QEvent::MouseButtonRelease, at, global, Qt::LeftButton, Qt::NoButton, Qt::NoModifier);
    QCoreApplication::sendEvent(header->viewport(), &release);
}

// One key press and release, as the keyboard delivers them (QTest::keyClick does the same).
void typeKey(QWidget *widget, QChar c)
{
    const int key = c.toUpper().unicode(); // Qt's key codes are Latin-1 for printable keys
    QKeyEvent press(QEvent::KeyPress, key, Qt::NoModifier, QString(c));
    QCoreApplication::sendEvent(widget, &press);
    QKeyEvent release(QEvent::KeyRelease, key, Qt::NoModifier, QString(c));
    QCoreApplication::sendEvent(widget, &release);
}

// The filter bar set to the events of the last part of the generated week that holds about
// `rows` of them (all when the outbox has no more), the search cleared.
void filterToRows(MainWindow *window, qint64 rows)
{
    auto *bar = window->findChild<FilterBar *>();
    const HealthCounts &counts = window->monitor()->snapshot().counts;
    const qint64 total = counts.pending() + counts.delivered + counts.dead;
    EventFilter filter = bar->filter();
    filter.search.clear();
    filter.maxAgeMs = std::nullopt;
    if (total > rows && rows > 0)
        filter.maxAgeMs = qint64(double(GeneratedWeekMs) * double(rows) / double(total));
    bar->setFilter(filter);
}

// "Export events…" without its file dialog: the same export of the table's filter, streamed on
// its worker; `done` runs when OperatorActions reports the end.
bool exportEvents(MainWindow *window, const QString &path, QObject *context,
    std::function<void(bool ok, const QString &message)> done)
{
    OperatorActions *actions = window->operatorActions();
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection = QObject::connect(actions, &OperatorActions::exportFinished, context,
        [connection, done](bool ok, bool, qint64, const QString &message) {
            QObject::disconnect(*connection);
            done(ok, message);
        });
    if (actions->startExportEvents(path))
        return true;
    QObject::disconnect(*connection);
    return false;
}

bool hasEvent(const QAbstractItemModel *model, const QString &eventId)
{
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->index(row, 0).data(EventListModel::EventIdRole).toString() == eventId)
            return true;
    }
    return false;
}

// --- end of the window's surface

qint64 wallMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

QString jsonList(const QList<qint64> &values)
{
    QStringList parts;
    for (qint64 v : values)
        parts << QString::number(v);
    return QLatin1Char('[') + parts.join(QLatin1Char(',')) + QLatin1Char(']');
}

QString jsonString(const QString &text)
{
    QString out = text;
    out.replace(QLatin1Char('\\'), QLatin1String("\\\\"))
        .replace(QLatin1Char('"'), QLatin1String("\\\""));
    return QLatin1Char('"') + out + QLatin1Char('"');
}

std::optional<BenchDriver::Step> parseStep(const QString &text, QString *error)
{
    const QStringList parts = text.split(QLatin1Char(':'));
    BenchDriver::Step step {parts.constFirst(), {}, 0};
    bool ok = true;
    if ((step.kind == QLatin1String("idle") || step.kind == QLatin1String("restart"))
        && parts.size() == 2)
        step.number = parts.at(1).toLongLong(&ok);
    else if ((step.kind == QLatin1String("type-search") || step.kind == QLatin1String("id-search"))
        && parts.size() == 2 && !parts.at(1).isEmpty())
        step.text = parts.at(1);
    else if (step.kind == QLatin1String("payload-search") && parts.size() >= 2)
        step.text = parts.mid(1).join(QLatin1Char(':')); // a fragment's own colons
    else if (step.kind == QLatin1String("export") && parts.size() == 3 && !parts.at(2).isEmpty()) {
        step.number = parts.at(1).toLongLong(&ok);
        step.text = parts.at(2);
    } else if (step.kind != QLatin1String("sort-type") || parts.size() != 1)
        ok = false;
    if (!ok || step.number < 0) {
        *error = QStringLiteral("bad benchmark step \"%1\"").arg(text);
        return std::nullopt;
    }
    return step;
}

} // namespace

QList<BenchDriver::Step> BenchDriver::parse(const QString &script, QString *error)
{
    QList<Step> steps;
    for (const QString &text : script.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const std::optional<Step> step = parseStep(text.trimmed(), error);
        if (!step)
            return {};
        steps << *step;
    }
    if (steps.isEmpty())
        *error = QStringLiteral("empty benchmark script");
    return steps;
}

BenchDriver::BenchDriver(MainWindow *window, const QList<Step> &steps, const QString &reportPath,
    int holdMs, QObject *parent)
    : QObject(parent)
    , m_window(window)
    , m_steps(steps)
    , m_reportPath(reportPath)
    , m_holdMs(holdMs)
{
    m_heartbeat.setTimerType(Qt::PreciseTimer);
    m_heartbeat.setInterval(BenchText::HeartbeatMs);
    connect(&m_heartbeat, &QTimer::timeout, this, &BenchDriver::beat);
    m_timeout.setSingleShot(true);
    connect(&m_timeout, &QTimer::timeout, this, &BenchDriver::hold); // never done: doneMs stays -1
    m_typer.setInterval(10);
    connect(&m_typer, &QTimer::timeout, this, &BenchDriver::typeDueKeys);
}

void BenchDriver::start()
{
    if (!m_window) {
        QApplication::exit(2);
        return;
    }
    connect(m_window->monitor(), &HealthMonitor::snapshotChanged, this,
        [this] { m_snapshotsMs << wallMs(); });
    QAbstractItemModel *model = tableModel(m_window);
    const auto changed = [this, model] {
        if (model->rowCount() > 0)
            m_tableChangesMs << wallMs();
        m_changed = true;
        check();
    };
    connect(model, &QAbstractItemModel::modelReset, this, changed);
    connect(model, &QAbstractItemModel::layoutChanged, this, changed);
    connect(model, &QAbstractItemModel::rowsInserted, this, changed);
    connect(model, &QAbstractItemModel::rowsRemoved, this, changed);
    connect(model, &QAbstractItemModel::dataChanged, this, changed);
    m_clock.start();
    m_lastBeatNs = m_clock.nsecsElapsed();
    m_heartbeat.start();
    QTimer::singleShot(0, this, &BenchDriver::nextStep);
}

void BenchDriver::beat()
{
    const qint64 now = m_clock.nsecsElapsed();
    m_phase.maxGapMs = std::max(m_phase.maxGapMs, double(now - m_lastBeatNs) / 1e6);
    m_lastBeatNs = now;
    check();
}

void BenchDriver::nextStep()
{
    if (!m_window || m_next >= m_steps.size()) {
        finish();
        return;
    }
    const Step step = m_steps.at(m_next++);
    m_phase = Phase {};
    m_phase.step = step.kind;
    m_phase.startMs = wallMs();
    m_changed = false;
    m_done = nullptr;
    m_actionNs = m_clock.nsecsElapsed();
    perform(step);
}

void BenchDriver::perform(const Step &step)
{
    if (step.kind == QLatin1String("idle"))
        QTimer::singleShot(int(step.number), this, &BenchDriver::endPhase);
    else if (step.kind == QLatin1String("restart"))
        cueRestart(int(step.number));
    else if (step.kind == QLatin1String("sort-type"))
        sortByType();
    else if (step.kind == QLatin1String("type-search"))
        typeSearch(step.text);
    else if (step.kind == QLatin1String("id-search"))
        searchId(step.text);
    else if (step.kind == QLatin1String("export"))
        exportRows(step.number, step.text);
    else if (step.kind == QLatin1String("payload-search"))
        searchPayload(step.text);
}

void BenchDriver::cueRestart(int holdMs)
{
    QFile marker(m_reportPath + QStringLiteral(".restart"));
    if (marker.open(QIODevice::WriteOnly))
        marker.write(QByteArray::number(wallMs()) + '\n');
    m_phase.extra = QStringLiteral(",\"refresh_interval_ms\":%1")
                        .arg(m_window->monitor()->effectiveInterval());
    QTimer::singleShot(holdMs, this, &BenchDriver::endPhase);
}

void BenchDriver::sortByType()
{
    QAbstractItemModel *model = tableModel(m_window);
    QHeaderView *header = m_window->eventView()->horizontalHeader();
    const int column = typeColumn(model);
    watch([this, model, header, column] {
        return m_changed && model->rowCount() > 0 && header->sortIndicatorSection() == column;
    });
    clickHeader(header, column);
}

void BenchDriver::typeSearch(const QString &text)
{
    QAbstractItemModel *model = tableModel(m_window);
    m_typing = text;
    m_typed = 0;
    watch([this, model] {
        return m_typed == m_typing.size() && m_changed && model->rowCount() == 0;
    });
    searchField(m_window)->setFocus();
    m_typer.start();
    typeDueKeys();
}

void BenchDriver::searchId(const QString &id)
{
    QAbstractItemModel *model = tableModel(m_window);
    watch([this, model, id] { return m_changed && hasEvent(model, id); });
    searchField(m_window)->setText(id);
}

void BenchDriver::exportRows(qint64 rows, const QString &path)
{
    m_exportStartNs = -1;
    m_exportMs = -1;
    m_exportError.clear();
    m_phase.extra = QStringLiteral(",\"file\":%1").arg(jsonString(path));
    watch([this, path] {
        if (m_exportStartNs < 0 && m_changed) { // the filtered table shows: export it
            m_exportStartNs = m_clock.nsecsElapsed();
            const auto finished = [this](bool ok, const QString &message) {
                if (!ok)
                    m_exportError = message.isEmpty() ? QStringLiteral("export failed") : message;
                m_exportMs = double(m_clock.nsecsElapsed() - m_exportStartNs) / 1e6;
            };
            if (!exportEvents(m_window, path, this, finished))
                finished(false, QStringLiteral("the export did not start"));
        }
        return m_exportMs >= 0;
    });
    filterToRows(m_window, rows);
}

void BenchDriver::searchPayload(const QString &text)
{
    EventListModel *events = m_window->eventModel();
    watch([this, events, text] {
        // Answered: the rows of the search, or the reason it has none (its timeout).
        const bool answered = events->filter().payloadContains == text && !events->isLoading()
            && (m_changed || !events->lastError().isEmpty());
        if (answered)
            m_phase.extra = QStringLiteral(",\"rows\":%1,\"error\":%2")
                                .arg(events->rowCount())
                                .arg(jsonString(events->lastError()));
        return answered;
    });
    payloadField(m_window)->setText(text); // pasted at once
}

void BenchDriver::watch(std::function<bool()> done)
{
    m_done = std::move(done);
    m_timeout.start(StepTimeoutMs);
}

void BenchDriver::check()
{
    if (!m_done || !m_done())
        return;
    m_done = nullptr;
    m_phase.doneMs = double(m_clock.nsecsElapsed() - m_actionNs) / 1e6;
    hold();
}

void BenchDriver::hold()
{
    m_done = nullptr;
    m_timeout.stop();
    m_typer.stop();
    QTimer::singleShot(m_holdMs, this, &BenchDriver::endPhase);
}

void BenchDriver::endPhase()
{
    m_phase.endMs = wallMs();
    if (m_phase.step == QLatin1String("export"))
        m_phase.extra += QStringLiteral(",\"export_ms\":%1,\"error\":%2")
                             .arg(BenchText::number(m_exportMs), jsonString(m_exportError));
    m_phases << m_phase;
    nextStep();
}

void BenchDriver::typeDueKeys()
{
    QLineEdit *field = searchField(m_window);
    const qint64 elapsedMs = (m_clock.nsecsElapsed() - m_actionNs) / 1000000;
    // Keys a user typed while the window was busy arrive together afterwards.
    while (m_typed < m_typing.size() && elapsedMs >= qint64(m_typed) * KeyIntervalMs)
        typeKey(field, m_typing.at(m_typed++));
    if (m_typed == m_typing.size())
        m_typer.stop();
}

void BenchDriver::finish()
{
    m_heartbeat.stop();
    QFile file(m_reportPath);
    const bool written = file.open(QIODevice::WriteOnly | QIODevice::Truncate)
        && file.write(report().toUtf8() + '\n') > 0;
    file.close();
    // A ping sent during the last step is still answered before the window goes away.
    QTimer::singleShot(500, qApp, [written] { QApplication::exit(written ? 0 : 2); });
}

QString BenchDriver::report() const
{
    QStringList phases;
    for (const Phase &p : m_phases)
        phases << QStringLiteral("{\"step\":%1,\"start_ms\":%2,\"end_ms\":%3,\"done_ms\":%4,"
                                 "\"heartbeat_max_gap_ms\":%5%6}")
                      .arg(jsonString(p.step))
                      .arg(p.startMs)
                      .arg(p.endMs)
                      .arg(BenchText::number(p.doneMs), BenchText::number(p.maxGapMs), p.extra);
    return QStringLiteral("{\"phases\":[%1],\"snapshots_ms\":%2,\"table_changes_ms\":%3}")
        .arg(phases.join(QLatin1Char(',')), jsonList(m_snapshotsMs), jsonList(m_tableChangesMs));
}
