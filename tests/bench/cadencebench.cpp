// outbox-cadence-bench --db URL [--interval-ms 2000] [--phase-s 60] [--search FRAGMENT]
// [--search-timeout-ms 3000]: for tests/bench/health-cadence. Wires the window's readers as
// MainWindow does, without widgets: the HealthMonitor (adaptive, the user's interval 2 s), the
// diagnosis on the health thread, and the event table (EventListModel, its own worker and
// connection) refreshed after each changed snapshot through its own EventTableCadence. It times
// when each snapshot arrives for one phase idle, then for one phase of back-to-back payload
// searches on the table (each cancelled at the table's statement timeout, or answered), and
// prints one JSON line: the snapshot intervals of each phase (median, mean, max), their ratio
// (searching / idle), the searches' count and duration, the snapshot's own cost and the
// interval the monitor kept.
#include "diagnosismonitor.h"
#include "eventlistmodel.h"
#include "eventtablecadence.h"
#include "healthmonitor.h"
#include "healthworker.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTextStream>
#include <QTimer>
#include <algorithm>
#include <numeric>

namespace {

struct Figures
{
    qint64 median = 0;
    double mean = 0;
    qint64 max = 0;
    qsizetype count = 0;
};

Figures figuresOf(QList<qint64> values)
{
    Figures f;
    if (values.isEmpty())
        return f;
    std::sort(values.begin(), values.end());
    f.median = values.at(values.size() / 2);
    f.mean = std::accumulate(values.cbegin(), values.cend(), 0.0) / double(values.size());
    f.max = values.constLast();
    f.count = values.size();
    return f;
}

// The gaps between consecutive arrival times within [from, to].
QList<qint64> intervalsWithin(const QList<qint64> &arrivals, qint64 from, qint64 to)
{
    QList<qint64> gaps;
    for (qsizetype i = 1; i < arrivals.size(); ++i)
        if (arrivals.at(i - 1) >= from && arrivals.at(i) <= to)
            gaps << arrivals.at(i) - arrivals.at(i - 1);
    return gaps;
}

QString json(const char *name, const Figures &f)
{
    return QStringLiteral("\"%1\":{\"intervals\":%2,\"median_ms\":%3,\"mean_ms\":%4,\"max_ms\":%5}")
        .arg(QLatin1String(name))
        .arg(f.count)
        .arg(f.median)
        .arg(f.mean, 0, 'f', 1)
        .arg(f.max);
}

int fail(const QString &message)
{
    QTextStream(stderr) << "outbox-cadence-bench: " << message << Qt::endl;
    return 2;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addOption({u"db"_qs, u"Database URL."_qs, u"URL"_qs});
    parser.addOption({u"interval-ms"_qs, u"The user's interval."_qs, u"MS"_qs, u"2000"_qs});
    parser.addOption({u"phase-s"_qs, u"Seconds of each phase."_qs, u"S"_qs, u"60"_qs});
    parser.addOption({u"search"_qs, u"The payload fragment searched."_qs, u"JSON"_qs,
        uR"({"orderId":"ORDER-4711"})"_qs});
    parser.addOption(
        {u"search-timeout-ms"_qs, u"The table's statement timeout."_qs, u"MS"_qs, u"3000"_qs});
    parser.process(app);
    QString error;
    const DatabaseUrl url = DatabaseUrl::parse(parser.value(u"db"_qs), &error);
    if (!url.isValid())
        return fail(error);
    const qint64 phaseMs = parser.value(u"phase-s"_qs).toLongLong() * 1000;

    HealthMonitor monitor(url);
    monitor.setInterval(parser.value(u"interval-ms"_qs).toInt());
    OpenOptions diagnosisOptions = HealthWorker::defaultOpenOptions();
    diagnosisOptions.validateSchema = false;
    DiagnosisMonitor diagnosis(&monitor, url, diagnosisOptions);
    EventListModel table;
    OpenOptions tableOptions = EventListModel::defaultOpenOptions();
    tableOptions.statementTimeoutMs = parser.value(u"search-timeout-ms"_qs).toInt();
    table.setNow(QDateTime::currentMSecsSinceEpoch());
    table.setSource(url, tableOptions);

    QElapsedTimer clock;
    clock.start();
    QList<qint64> arrivals, costs, kept;
    QObject::connect(
        &monitor, &HealthMonitor::snapshotChanged, &table, [&](const HealthSnapshot &snapshot) {
            arrivals << clock.elapsed();
            costs << snapshot.queryMs;
            kept << monitor.adaptedInterval();
            table.setNow(snapshot.now);
            if (monitor.figuresChanged()) // as MainWindow::applySnapshot
                table.cadence()->refreshSoon();
        });
    QObject::connect(&monitor, &HealthMonitor::errorOccurred, &app,
        [](const QString &message) { QTextStream(stderr) << "snapshot: " << message << Qt::endl; });

    qint64 idleFrom = -1, searchFrom = -1, searchTo = -1;
    QList<qint64> searchMs;
    int timedOut = 0;
    EventFilter search;
    search.payloadContains = parser.value(u"search"_qs);
    QElapsedTimer oneSearch;
    const auto startSearch = [&] {
        oneSearch.start();
        table.setFilter(search);
    };
    QObject::connect(&table, &EventListModel::loadingChanged, &app, [&](bool loading) {
        if (loading || searchFrom < 0 || searchTo >= 0 || table.filter().payloadContains.isEmpty())
            return;
        searchMs << oneSearch.elapsed();
        timedOut += table.hasTimedOut() ? 1 : 0;
        if (clock.elapsed() - searchFrom < phaseMs) {
            QTimer::singleShot(0, &app, startSearch); // the next search, at once
            return;
        }
        searchTo = clock.elapsed();
        app.quit();
    });
    QTimer phases;
    phases.setInterval(100);
    // Warm-up: three snapshots (the adaptive interval settles on the snapshot's own cost).
    QObject::connect(&phases, &QTimer::timeout, &app, [&] {
        if (idleFrom < 0 && arrivals.size() >= 3 && !table.isLoading()) {
            idleFrom = arrivals.constLast();
        } else if (idleFrom >= 0 && searchFrom < 0 && clock.elapsed() - idleFrom >= phaseMs) {
            searchFrom = clock.elapsed();
            startSearch();
        }
    });
    phases.start();
    monitor.resume();
    app.exec();

    const Figures idle = figuresOf(intervalsWithin(arrivals, idleFrom, searchFrom));
    const Figures during = figuresOf(intervalsWithin(arrivals, searchFrom, searchTo));
    const Figures searches = figuresOf(searchMs);
    const Figures cost = figuresOf(costs);
    QTextStream(stdout) << u"{"_qs << json("idle", idle) << u","_qs << json("searching", during)
                        << QStringLiteral(",\"ratio_mean\":%1,\"ratio_max\":%2,\"searches\":%3,"
                                          "\"searches_timed_out\":%4,\"search_median_ms\":%5,"
                                          "\"search_max_ms\":%6,\"snapshot_median_ms\":%7,"
                                          "\"interval_kept_ms\":%8,\"user_interval_ms\":%9,"
                                          "\"table_spacing_ms\":%10}")
                               .arg(idle.mean > 0 ? during.mean / idle.mean : 0, 0, 'f', 3)
                               .arg(idle.max > 0 ? double(during.max) / double(idle.max) : 0, 0,
                                   'f', 3)
                               .arg(searches.count)
                               .arg(timedOut)
                               .arg(searches.median)
                               .arg(searches.max)
                               .arg(cost.median)
                               .arg(kept.isEmpty() ? -1 : kept.constLast())
                               .arg(monitor.interval())
                               .arg(table.cadence()->spacingMs())
                        << Qt::endl;
    return 0;
}
