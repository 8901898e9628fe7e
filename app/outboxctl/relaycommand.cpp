// outboxctl relay: runs the live simulated relay (N workers, fake transport with faults)
// on a simulation database and ends with one JSON summary line.
#include "cli.h"
#include "producer.h"
#include "relay.h"
#include "relayoptions.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSqlQuery>
#include <QTimer>

namespace {

qint64 count(const QSqlDatabase &db, const QString &sql)
{
    QSqlQuery query(db);
    return query.exec(sql) && query.next() ? query.value(0).toLongLong() : -1;
}

TraceEvent summary(const QSqlDatabase &db, int produced, const RelayStats &stats, qint64 elapsedMs)
{
    TraceEvent line;
    line.set(QStringLiteral("produced"), produced);
    line.set(QStringLiteral("delivered"),
        count(
            db, QStringLiteral("SELECT COUNT(*) FROM delivery_outbox WHERE status = 'DELIVERED'")));
    line.set(QStringLiteral("dead"),
        count(db, QStringLiteral("SELECT COUNT(*) FROM delivery_outbox WHERE status = 'DEAD'")));
    line.set(QStringLiteral("pending"),
        count(db, QStringLiteral("SELECT COUNT(*) FROM delivery_outbox WHERE status = 'PENDING'")));
    line.set(QStringLiteral("attempts"),
        count(db, QStringLiteral("SELECT COUNT(*) FROM delivery_attempt")));
    line.set(QStringLiteral("transport_calls"), stats.transportCalls);
    line.set(QStringLiteral("duplicates_suppressed"), stats.duplicatesSuppressed);
    line.set(QStringLiteral("fenced_acks"), stats.fencedAcks);
    line.set(QStringLiteral("lease_expired"),
        count(db,
            QStringLiteral(
                "SELECT COUNT(*) FROM delivery_attempt WHERE outcome = 'LEASE_EXPIRED'")));
    line.set(QStringLiteral("elapsed_ms"), elapsedMs);
    const double seconds = std::max<double>(double(elapsedMs), 1.0) / 1000.0;
    line.set(
        QStringLiteral("events_per_s"), std::round(double(stats.acked) / seconds * 10.0) / 10.0);
    return line;
}

} // namespace

int runRelay(const QStringList &arguments)
{
    QCommandLineParser parser;
    RelayOptions::addTo(parser);
    int exitCode = Cli::Ok;
    if (!Cli::parse(parser, QStringLiteral("relay"), arguments, &exitCode))
        return exitCode;
    RelayOptions options;
    QString error;
    if (!options.read(parser, &error))
        return Cli::fail(QStringLiteral("relay: ") + error);

    const auto connection = Cli::openForSimulation(options.db, &error);
    if (!connection)
        return Cli::fail(error);
    const QSqlDatabase db = connection->database();
    SystemClock clock;
    Producer producer(db, &clock, options.config.seed);
    if (!producer.seedStock(&error) || !producer.produce(options.produce, &error))
        return Cli::fail(QStringLiteral("producing events: ") + error);

    Relay relay(connection->url(), options.config, &clock);
    QObject::connect(&relay, &Relay::workerError, [](const QString &message) {
        QTextStream(stderr) << "outboxctl: relay worker: " << Cli::printable(message) << Qt::endl;
    });
    if (!relay.start(&error))
        return Cli::fail(error);
    QElapsedTimer elapsed;
    elapsed.start();

    QTimer tick;
    QObject::connect(&tick, &QTimer::timeout, [&] {
        const bool producing = options.rate > 0 && elapsed.elapsed() < options.durationMs;
        if (producing) {
            const int due = int(options.rate * double(elapsed.elapsed()) / 1000.0)
                - producer.produced() + options.produce;
            if (due > 0 && !producer.produce(due, &error)) {
                relay.stop();
                QCoreApplication::exit(Cli::fail(QStringLiteral("producing events: ") + error));
            }
            return;
        }
        const bool timeUp = options.durationMs > 0 && elapsed.elapsed() >= options.durationMs;
        const bool done = options.untilDrained
            ? count(db,
                  QStringLiteral("SELECT COUNT(*) FROM delivery_outbox WHERE status = 'PENDING'"))
                == 0
            : timeUp;
        if (!done)
            return;
        tick.stop();
        relay.stop();
        Cli::printLine(
            summary(db, producer.produced(), relay.stats(), elapsed.elapsed()).toJsonLine());
        QCoreApplication::exit(Cli::Ok);
    });
    tick.start(20);
    return QCoreApplication::exec();
}
