#include "fleetbench.h"

#include "benchtext.h"
#include "fleetmodel.h"
#include "fleetwindow.h"
#include "healthmonitor.h"

#include <QApplication>
#include <QDateTime>
#include <QFile>
#include <algorithm>

FleetBench::FleetBench(
    FleetWindow *fleet, int durationMs, const QString &reportPath, QObject *parent)
    : QObject(parent)
    , m_fleet(fleet)
    , m_durationMs(durationMs)
    , m_reportPath(reportPath)
{
    m_heartbeat.setTimerType(Qt::PreciseTimer);
    m_heartbeat.setInterval(BenchText::HeartbeatMs);
    connect(&m_heartbeat, &QTimer::timeout, this, &FleetBench::beat);
}

void FleetBench::start()
{
    FleetModel *model = m_fleet->model();
    for (int row = 0; row < model->rowCount(); ++row) {
        m_outboxes.append({model->nameAt(row)});
        if (HealthMonitor *monitor = model->monitorAt(row)) {
            connect(monitor, &HealthMonitor::snapshotChanged, this,
                [this, row](const HealthSnapshot &snapshot) {
                    ++m_outboxes[row].snapshots;
                    m_outboxes[row].queryMs += snapshot.queryMs;
                });
        }
    }
    m_startMs = QDateTime::currentMSecsSinceEpoch();
    m_clock.start();
    m_lastBeatNs = 0;
    m_heartbeat.start();
    QTimer::singleShot(m_durationMs, this, &FleetBench::finish);
}

void FleetBench::beat()
{
    const qint64 now = m_clock.nsecsElapsed();
    const double gap = double(now - m_lastBeatNs) / 1e6;
    m_lastBeatNs = now;
    if (m_steadyStartMs == 0) {
        m_startupMaxGapMs = std::max(m_startupMaxGapMs, gap);
        if (allAnswered())
            m_steadyStartMs = QDateTime::currentMSecsSinceEpoch();
        return;
    }
    m_gapsMs.append(gap);
}

bool FleetBench::allAnswered() const
{
    const FleetModel *model = m_fleet->model();
    for (int row = 0; row < model->rowCount(); ++row) {
        const HealthMonitor *monitor = model->monitorAt(row);
        if (monitor && !monitor->hasSnapshot() && !monitor->isStale())
            return false;
    }
    return true;
}

QString FleetBench::report() const
{
    QList<double> gaps = m_gapsMs;
    std::sort(gaps.begin(), gaps.end());
    const double maxGap = gaps.isEmpty() ? 0 : gaps.last();
    const double p99 = gaps.isEmpty()
        ? 0
        : gaps.at(std::min<qsizetype>(gaps.size() - 1, qsizetype(0.99 * double(gaps.size()))));
    const double minutes = double(m_durationMs) / 60000.0;
    QStringList outboxes;
    const FleetModel *model = m_fleet ? m_fleet->model() : nullptr;
    for (int row = 0; row < m_outboxes.size(); ++row) {
        const Outbox &o = m_outboxes.at(row);
        const bool down = model && model->index(row, 0).data(FleetModel::DownRole).toBool();
        outboxes << QStringLiteral(
            "{\"name\":\"%1\",\"snapshots_per_minute\":%2,\"db_ms_per_minute\":%3,\"down\":%4}")
                        .arg(o.name, BenchText::number(o.snapshots / minutes),
                            BenchText::number(o.queryMs / minutes),
                            down ? QStringLiteral("true") : QStringLiteral("false"));
    }
    return QStringLiteral(
        "{\"outboxes\":%1,\"duration_ms\":%2,\"start_ms\":%3,"
        "\"steady_start_ms\":%4,\"end_ms\":%5,\"startup_max_gap_ms\":%6,"
        "\"max_gap_ms\":%7,\"p99_gap_ms\":%8,\"beats\":%9,\"per_outbox\":[%10]}\n")
        .arg(m_outboxes.size())
        .arg(m_durationMs)
        .arg(m_startMs)
        .arg(m_steadyStartMs)
        .arg(QDateTime::currentMSecsSinceEpoch())
        .arg(
            BenchText::number(m_startupMaxGapMs), BenchText::number(maxGap), BenchText::number(p99))
        .arg(m_gapsMs.size())
        .arg(outboxes.join(QLatin1Char(',')));
}

void FleetBench::finish()
{
    m_heartbeat.stop();
    QFile file(m_reportPath);
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        file.write(report().toUtf8());
    QApplication::quit();
}
