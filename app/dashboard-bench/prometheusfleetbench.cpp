#include "prometheusfleetbench.h"

#include "fleetmodel.h"
#include "fleetwindow.h"
#include "prometheusfleetmodel.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QTimer>
#include <sys/resource.h>

PrometheusFleetBench::PrometheusFleetBench(
    FleetWindow *fleet, int idleMs, int expected, const QString &reportPath, QObject *parent)
    : QObject(parent)
    , m_fleet(fleet)
    , m_idleMs(idleMs)
    , m_expected(expected)
    , m_reportPath(reportPath)
{ }

void PrometheusFleetBench::start()
{
    m_clock.start();
    connect(m_fleet->prometheusModel(), &PrometheusFleetModel::refreshed, this,
        &PrometheusFleetBench::onRefreshed);
}

void PrometheusFleetBench::onRefreshed()
{
    const PrometheusFleetModel *model = m_fleet->prometheusModel();
    if (m_fillMs >= 0 || model->rowCount() < m_expected)
        return;
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->index(row, FleetModel::StatusColumn).data().toString() != QLatin1String("up"))
            return;
    }
    m_fillMs = m_clock.elapsed();
    m_cpuAtFill = cpuSeconds();
    m_idleStartMs = m_clock.elapsed();
    m_readsAtFill = model->reads();
    QTimer::singleShot(m_idleMs, this, &PrometheusFleetBench::finish);
}

double PrometheusFleetBench::cpuSeconds()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    const auto seconds = [](const timeval &t) { return double(t.tv_sec) + t.tv_usec / 1e6; };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// Descriptors of this process open on a SQLite file (or its journal): a database connection.
int PrometheusFleetBench::openDatabaseFiles()
{
    int n = 0;
    const QDir fds(QStringLiteral("/proc/self/fd"));
    for (const QFileInfo &fd : fds.entryInfoList(QDir::Files | QDir::System)) {
        if (fd.symLinkTarget().contains(QLatin1String(".sqlite")))
            ++n;
    }
    return n;
}

void PrometheusFleetBench::finish()
{
    const double idleS = (m_clock.elapsed() - m_idleStartMs) / 1000.0;
    const PrometheusFleetModel *model = m_fleet->prometheusModel();
    QJsonObject report {{QStringLiteral("outboxes"), model->rowCount()},
        {QStringLiteral("fill_ms"), m_fillMs}, {QStringLiteral("idle_s"), idleS},
        {QStringLiteral("idle_cpu_percent_of_core"), 100.0 * (cpuSeconds() - m_cpuAtFill) / idleS},
        {QStringLiteral("reads_while_idle"), model->reads() - m_readsAtFill},
        {QStringLiteral("qt_sql_connections"), QSqlDatabase::connectionNames().size()},
        {QStringLiteral("open_sqlite_files"), openDatabaseFiles()},
        {QStringLiteral("last_error"), model->lastError()}};
    QFile file(m_reportPath);
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        file.write(QJsonDocument(report).toJson(QJsonDocument::Compact) + '\n');
    QApplication::quit();
}
