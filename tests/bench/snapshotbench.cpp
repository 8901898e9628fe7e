// outbox-snapshot-bench --db URL --now MS [--runs N] [--trace FILE]: times HealthQuery::compute
// as the dashboard's worker runs it (same connection options), for tests/bench/scale. Prints
// one JSON line with the median and minimum of N runs after one warm-up run, the median
// without the delivery latency (HealthQuery::Options::readLatency off, runs taken in turn with
// the others) and their ratio, the latency read, and the Charts tab's history (HistoryQuery)
// of each range read once, and the 7 d range refreshed; and writes the
// SQL of a run, values in place, to FILE so that the script can time the same statements
// through psql or sqlite3. It also times the diagnosis engine (DiagnosisQuery::run) the same way,
// the median of N runs after a warm-up: every rule read (`outboxctl diagnose`), and as the
// window's diagnosis worker runs it (blocked_aggregate's reading kept in a BlockedMemo, so the
// runs after the warm-up reuse it), with the cost of that reading alone.
#include "diagnosisquery.h"
#include "healthquery.h"
#include "healthworker.h"
#include "historyquery.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTextStream>
#include <algorithm>

namespace {

int fail(const QString &message)
{
    QTextStream(stderr) << "outbox-snapshot-bench: " << message << Qt::endl;
    return 2;
}

QString number(double value)
{
    return QString::number(value, 'f', 3);
}

// A message as the inside of a JSON string (driver messages hold no control characters).
QString jsonText(QString text)
{
    return text.replace(u'\\', u"\\\\"_qs).replace(u'"', u"\\\""_qs).simplified();
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addOption({u"db"_qs, u"Database URL."_qs, u"URL"_qs});
    parser.addOption({u"now"_qs, u"The time to judge at (ms)."_qs, u"MS"_qs});
    parser.addOption(
        {u"runs"_qs, u"Timed runs after one warm-up (default 5)."_qs, u"N"_qs, u"5"_qs});
    parser.addOption({u"trace"_qs, u"Write the SQL of a run here."_qs, u"FILE"_qs});
    parser.addOption(
        {u"diagnosis-trace"_qs, u"Write the diagnosis's SQL of a run here."_qs, u"FILE"_qs});
    parser.process(app);

    QString error;
    const DatabaseUrl url = DatabaseUrl::parse(parser.value(u"db"_qs), &error);
    if (!url.isValid())
        return fail(error);
    const auto connection = DbConnection::open(url, HealthWorker::defaultOpenOptions(), &error);
    if (!connection)
        return fail(error);
    const qint64 now = parser.value(u"now"_qs).toLongLong();
    const int runs = std::max(1, parser.value(u"runs"_qs).toInt());

    QStringList trace;
    HealthQuery::Options options = HealthQuery::Options::fromEnvironment();
    options.trace = &trace;
    std::optional<HealthSnapshot> snapshot
        = HealthQuery::compute(connection->database(), now, &error, options);
    if (!snapshot)
        return fail(error);
    options.trace = nullptr;
    // With the delivery latency (what every reader runs) and without it, run by run in turn so
    // that both meet the same cache and the same load.
    HealthQuery::Options withoutLatency = options;
    withoutLatency.readLatency = false;
    QList<double> times;
    QList<double> timesWithout;
    for (int i = 0; i < runs; ++i) {
        for (const bool latency : {true, false}) {
            QElapsedTimer timer;
            timer.start();
            const std::optional<HealthSnapshot> run = HealthQuery::compute(
                connection->database(), now, &error, latency ? options : withoutLatency);
            if (!run)
                return fail(error);
            (latency ? times : timesWithout) << double(timer.nsecsElapsed()) / 1e6;
            if (latency)
                snapshot = run;
        }
    }
    std::sort(times.begin(), times.end());
    std::sort(timesWithout.begin(), timesWithout.end());
    const double median = times.at(times.size() / 2);
    const double medianWithout = timesWithout.at(timesWithout.size() / 2);

    // The diagnosis and the history go on when a read fails (e.g. the window's statement
    // timeout on a loaded server): their figures read -1 and the error is reported.
    QString diagnosisError;
    QString historyError;
    QStringList diagnosisTrace;
    std::optional<DiagnosisResult> diagnosis = DiagnosisQuery::run(
        connection->database(), now, &error, nullptr, {}, &diagnosisTrace); // warm-up
    if (parser.isSet(u"diagnosis-trace"_qs)) {
        QFile file(parser.value(u"diagnosis-trace"_qs));
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return fail(u"cannot write "_qs + file.fileName());
        file.write((diagnosisTrace.join(u";\n"_qs) + u";\n"_qs).toUtf8());
    }
    const auto medianOf = [&](DiagnosisQuery::BlockedMemo *memo, double *median) {
        QList<double> diagnosisTimes;
        for (int i = 0; i < runs; ++i) {
            QElapsedTimer timer;
            timer.start();
            diagnosis = DiagnosisQuery::run(
                connection->database(), now, &error, nullptr, {}, nullptr, memo);
            if (!diagnosis)
                return false;
            diagnosisTimes << double(timer.nsecsElapsed()) / 1e6;
        }
        std::sort(diagnosisTimes.begin(), diagnosisTimes.end());
        *median = diagnosisTimes.at(diagnosisTimes.size() / 2);
        return true;
    };
    double everyRule = -1;
    double window = -1;
    DiagnosisQuery::BlockedMemo memo;
    // The window's first diagnosis reads blocked_aggregate into the memo.
    if (!diagnosis || !medianOf(nullptr, &everyRule)
        || !DiagnosisQuery::run(connection->database(), now, &error, nullptr, {}, nullptr, &memo)
        || !medianOf(&memo, &window))
        diagnosisError = error;

    // The Charts tab's history as the window reads it: each range's first reading (every
    // bucket), then the 7 d range again with the settled buckets kept (a refresh).
    QList<double> historyMs;
    HistoryCache weekCache;
    for (const HistoryRange range : {HistoryRange::Hour, HistoryRange::Day, HistoryRange::Week}) {
        HistoryCache cache;
        QElapsedTimer timer;
        timer.start();
        const bool read = HistoryQuery::read(connection->database(), range, now, nullptr,
                              range == HistoryRange::Week ? &weekCache : &cache, &error)
                              .has_value();
        if (!read)
            historyError = error;
        historyMs << (read ? double(timer.nsecsElapsed()) / 1e6 : -1.0);
    }
    QElapsedTimer refresh;
    refresh.start();
    const bool refreshed = HistoryQuery::read(connection->database(), HistoryRange::Week, now,
        nullptr, &weekCache, &error)
                               .has_value();
    if (!refreshed)
        historyError = error;
    historyMs << (refreshed ? double(refresh.nsecsElapsed()) / 1e6 : -1.0);

    if (parser.isSet(u"trace"_qs)) {
        QFile file(parser.value(u"trace"_qs));
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return fail(u"cannot write "_qs + file.fileName());
        file.write((trace.join(u";\n"_qs) + u";\n"_qs).toUtf8());
    }
    const HealthCounts &c = snapshot->counts;
    QTextStream(stdout) << QStringLiteral(
        "{\"runs\":%1,\"median_ms\":%2,\"min_ms\":%3,\"max_ms\":%4,\"statements\":%5,"
        "\"estimated\":\"%6\",\"due\":%7,\"scheduled\":%8,\"in_flight\":%9,\"lease_expired\":%10,"
        "\"delivered\":%11,\"dead\":%12,\"diagnosis_median_ms\":%13,\"findings\":%14,"
        "\"diagnosis_window_median_ms\":%15,\"blocked_aggregate_ms\":%16,"
        "\"no_latency_median_ms\":%17,\"latency_ratio\":%18,\"delivered_last_hour\":%19,"
        "\"latency_p50_ms\":%20,\"latency_p95_ms\":%21,\"latency_p99_ms\":%22,"
        "\"history_1h_ms\":%23,\"history_24h_ms\":%24,\"history_7d_ms\":%25,"
        "\"history_7d_refresh_ms\":%26,\"diagnosis_error\":\"%27\",\"history_error\":\"%28\"}")
                               .arg(runs)
                               .arg(number(median), number(times.constFirst()),
                                   number(times.constLast()))
                               .arg(trace.size())
                               .arg(snapshot->estimated.join(u","_qs))
                               .arg(c.due)
                               .arg(c.scheduled)
                               .arg(c.inFlight)
                               .arg(c.leaseExpired)
                               .arg(c.delivered)
                               .arg(c.dead)
                               .arg(number(everyRule))
                               .arg(diagnosis ? diagnosis->findings.size() : -1)
                               .arg(number(window))
                               .arg(memo.costMs)
                               .arg(number(medianWithout))
                               .arg(number(medianWithout > 0 ? median / medianWithout : 0))
                               .arg(snapshot->latency.count)
                               .arg(snapshot->latency.p50Ms.value_or(-1))
                               .arg(snapshot->latency.p95Ms.value_or(-1))
                               .arg(snapshot->latency.p99Ms.value_or(-1))
                               .arg(number(historyMs.at(0)), number(historyMs.at(1)),
                                   number(historyMs.at(2)), number(historyMs.at(3)))
                               .arg(jsonText(diagnosisError), jsonText(historyError))
                        << Qt::endl;
    return 0;
}
