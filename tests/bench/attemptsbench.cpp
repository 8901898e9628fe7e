// outbox-attempts-bench --db URL [--profile NAME [--whole-array]] --events ID,ID,... [--runs N]
// [--warmup 0|1] [--timeout-ms MS]: times one event's attempt history as the window's detail
// pane and `explain` read it, for tests/bench/attempts-json: AttemptModel's statement (`SELECT
// <delivery_attempt's columns> FROM <attempts source> WHERE event_id = :id ORDER BY attempt_no
// DESC LIMIT :limit`) over the native delivery_attempt, or over a profile's attempt mapping
// (OutboxProfile::attemptSource: a JSON array expanded by SqlDialect::jsonArrayElementsSql).
// The profile's source selects the event's row before expanding its array, as AttemptModel
// and `explain` read it; --whole-array reads it as they did before (every event's array
// expanded, then one event's kept). Each event is read once as a warm-up (unless --warmup 0),
// then N rounds; prints one JSON line with the median and maximum per read (ms), the attempts
// per event and, on MySQL/MariaDB, the rows the server's handlers read per read
// (Handler_read_%: a full scan shows as the table's size).
#include "attemptmapping.h"
#include "dbconnection.h"
#include "healthworker.h"
#include "profileregistry.h"
#include "sqldialect.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSqlError>
#include <QSqlQuery>
#include <QTextStream>
#include <algorithm>

namespace {

int fail(const QString &message)
{
    QTextStream(stderr) << "outbox-attempts-bench: " << message << Qt::endl;
    return 2;
}

// The session's Handler_read_* counters summed (MySQL/MariaDB); -1 where there are none.
qint64 handlerReads(const QSqlDatabase &db)
{
    QSqlQuery query(db);
    if (!query.exec(u"SHOW SESSION STATUS LIKE 'Handler_read%'"_qs))
        return -1;
    qint64 sum = 0;
    while (query.next())
        sum += query.value(1).toLongLong();
    return sum;
}

struct Reading
{
    QList<double> times;
    qint64 attempts = 0;
    qint64 handlerRows = 0;
};

// One read of `event`'s attempts; the rows read, or -1 with *error set.
qint64 readOnce(const QSqlDatabase &db, const QString &sql, const QString &event, QString *error)
{
    QSqlQuery query(db);
    query.setForwardOnly(true);
    if (!query.prepare(sql)) {
        *error = query.lastError().text();
        return -1;
    }
    query.bindValue(u":id"_qs, event);
    query.bindValue(u":limit"_qs, AttemptMapping::ReadLimit + 1);
    if (!query.exec()) {
        *error = query.lastError().text();
        return -1;
    }
    qint64 rows = 0;
    while (query.next())
        ++rows;
    return rows;
}

std::optional<Reading> readAll(const QSqlDatabase &db, const QString &sql,
    const QStringList &events, int runs, bool warmup, QString *error)
{
    Reading reading;
    const qint64 before = handlerReads(db);
    for (int run = warmup ? -1 : 0; run < runs; ++run) {
        for (const QString &event : events) {
            QElapsedTimer timer;
            timer.start();
            const qint64 rows = readOnce(db, sql, event, error);
            if (rows < 0)
                return std::nullopt;
            if (run < 0)
                continue;
            reading.times << double(timer.nsecsElapsed()) / 1e6;
            reading.attempts += rows;
        }
    }
    const qint64 after = handlerReads(db);
    const qint64 reads = qint64(events.size()) * (runs + (warmup ? 1 : 0));
    reading.handlerRows = before < 0 ? -1 : (after - before) / reads;
    return reading;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addOption({u"db"_qs, u"Database URL."_qs, u"URL"_qs});
    parser.addOption({u"profile"_qs, u"A built-in profile (default: native)."_qs, u"NAME"_qs});
    parser.addOption({u"whole-array"_qs, u"Expand every event's array (as before)."_qs});
    parser.addOption({u"events"_qs, u"The event IDs to read, comma-separated."_qs, u"IDS"_qs});
    parser.addOption({u"runs"_qs, u"Timed rounds (default 5)."_qs, u"N"_qs, u"5"_qs});
    parser.addOption(
        {u"warmup"_qs, u"Read each event once first (default 1)."_qs, u"0|1"_qs, u"1"_qs});
    parser.addOption({u"timeout-ms"_qs,
        u"The statement timeout (default 5000, the window's; 0: none)."_qs, u"MS"_qs, u"5000"_qs});
    parser.process(app);

    QString error;
    const DatabaseUrl url = DatabaseUrl::parse(parser.value(u"db"_qs), &error);
    if (!url.isValid())
        return fail(error);
    std::optional<OutboxProfile> profile;
    if (parser.isSet(u"profile"_qs)) {
        profile = ProfileRegistry::byName(parser.value(u"profile"_qs), &error);
        if (!profile)
            return fail(error);
    }
    const bool native = !profile || profile->isNative();
    OpenOptions options = HealthWorker::defaultOpenOptions();
    options.validateSchema = native; // another schema has no native tables
    options.statementTimeoutMs = parser.value(u"timeout-ms"_qs).toInt();
    if (options.statementTimeoutMs == 0)
        options.deadPeerTimeoutS = 0; // the client's read timeout would cut a slow read
    const auto connection = DbConnection::open(url, options, &error);
    if (!connection)
        return fail(error);
    const QStringList events = parser.value(u"events"_qs).split(u',', Qt::SkipEmptyParts);
    if (events.isEmpty())
        return fail(u"--events names no event"_qs);
    const int runs = std::max(1, parser.value(u"runs"_qs).toInt());
    const Engine engine = SqlDialect::of(connection->database()).engine();
    const QString source = native         ? u"delivery_attempt"_qs
        : parser.isSet(u"whole-array"_qs) ? profile->attemptSource(engine)
                                          : profile->attemptSource(engine, u":id"_qs);
    // AttemptModel::readRows's statement.
    const QString sql = u"SELECT attempt_no, worker, claimed_at, finished_at, outcome,"
                        " error_category, error_message, consumer_result, next_attempt_at FROM "_qs
        + source + u" WHERE event_id = :id ORDER BY attempt_no DESC LIMIT :limit"_qs;

    const std::optional<Reading> reading = readAll(
        connection->database(), sql, events, runs, parser.value(u"warmup"_qs) != u"0"_qs, &error);
    if (!reading)
        return fail(error);
    QList<double> times = reading->times;
    std::sort(times.begin(), times.end());
    QTextStream(stdout) << QStringLiteral("{\"reads\":%1,\"median_ms\":%2,\"max_ms\":%3,"
                                          "\"attempts_per_event\":%4,\"handler_rows_per_read\":%5}")
                               .arg(times.size())
                               .arg(times.at(times.size() / 2), 0, 'f', 3)
                               .arg(times.constLast(), 0, 'f', 3)
                               .arg(double(reading->attempts) / times.size(), 0, 'f', 1)
                               .arg(reading->handlerRows)
                        << Qt::endl;
    return 0;
}
