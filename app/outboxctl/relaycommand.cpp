// outboxctl relay: runs the live simulated relay (N workers, fake transport with faults)
// on a simulation database and ends with one JSON summary line. The workers reconnect by
// themselves when the database goes away; this command announces an outage once, gives up
// after --give-up-after of it (exit 2), and never prints a figure it could not read.
#include "cli.h"
#include "producer.h"
#include "relay.h"
#include "relayoptions.h"
#include "reopeningconnection.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTimer>

namespace {

class RelayRun
{
public:
    RelayRun(const RelayOptions &options, const QSqlDatabase &db, Producer *producer, Relay *relay);

private:
    void tick();
    bool runIsOver();
    void produceDue();
    bool giveUpIfUnreachable();
    TraceEvent summary(bool *complete);
    void finish(int exitCode);
    void onOutageStarted(const QString &cause);
    void onOutageEnded(qint64 downMs);

    const RelayOptions &m_options;
    Producer *m_producer = nullptr;
    Relay *m_relay = nullptr;
    QElapsedTimer m_elapsed;
    ReopeningConnection m_db;
    QTimer m_tick;
    bool m_relayStopped = false; // the run is over; waiting to read the summary
    qint64 m_elapsedAtStop = 0;
};

RelayRun::RelayRun(
    const RelayOptions &options, const QSqlDatabase &db, Producer *producer, Relay *relay)
    : m_options(options)
    , m_producer(producer)
    , m_relay(relay)
    , m_db(db, &m_elapsed)
{
    m_elapsed.start();
    QObject::connect(
        relay, &Relay::outageStarted, [this](const QString &cause) { onOutageStarted(cause); });
    QObject::connect(relay, &Relay::outageEnded, [this](qint64 downMs) { onOutageEnded(downMs); });
    QObject::connect(&m_tick, &QTimer::timeout, [this] { tick(); });
    m_tick.start(20);
}

void RelayRun::onOutageStarted(const QString &cause)
{
    const QString giveUp = m_options.giveUpAfterMs > 0
        ? QStringLiteral("giving up after %1 ms").arg(m_options.giveUpAfterMs)
        : QStringLiteral("never giving up");
    QTextStream(stderr) << "outboxctl: relay: lost the database (" << Cli::printable(cause)
                        << "); reconnecting, " << giveUp << Qt::endl;
}

void RelayRun::onOutageEnded(qint64 downMs)
{
    QTextStream(stderr) << "outboxctl: relay: reconnected after " << downMs << " ms; resuming"
                        << Qt::endl;
}

void RelayRun::tick()
{
    if (giveUpIfUnreachable())
        return;
    if (!m_relayStopped) {
        if (!runIsOver())
            return;
        if (m_relay->isInOutage()) // the summary's reads are part of the same outage
            m_db.noteFailure(m_relay->outageCause(), m_elapsed.elapsed() - m_relay->outageMs());
        m_relay->stop();
        m_relayStopped = true;
        m_elapsedAtStop = m_elapsed.elapsed();
    }
    bool complete = false;
    const TraceEvent line = summary(&complete);
    if (!complete)
        return; // the database is unreachable: read again until it answers or we give up
    Cli::printLine(line.toJsonLine());
    finish(Cli::Ok);
}

bool RelayRun::runIsOver()
{
    const bool producing = m_options.rate > 0 && m_elapsed.elapsed() < m_options.durationMs;
    if (producing) {
        produceDue();
        return false;
    }
    if (!m_options.untilDrained)
        return m_options.durationMs > 0 && m_elapsed.elapsed() >= m_options.durationMs;
    if (m_relay->isInOutage())
        return false;
    return m_db.count(RelayTally::Figure::Pending) == 0;
}

void RelayRun::produceDue()
{
    const int due = int(m_options.rate * double(m_elapsed.elapsed()) / 1000.0)
        - m_producer->produced() + m_options.produce;
    if (due <= 0 || !m_db.ensureOpen())
        return;
    QString error;
    if (m_producer->produce(due, &error) || !m_db.stillAnswers(error))
        return; // a lost connection is an outage: produced again once it is back
    m_relay->stop();
    finish(Cli::fail(QStringLiteral("producing events: ") + error));
}

bool RelayRun::giveUpIfUnreachable()
{
    const qint64 relayDown = m_relay->outageMs();
    const qint64 down = std::max(relayDown, m_db.downMs());
    if (m_options.giveUpAfterMs == 0 || down < m_options.giveUpAfterMs)
        return false;
    const QString cause = m_relay->isInOutage() ? m_relay->outageCause() : m_db.cause();
    m_relay->stop();
    if (m_relayStopped) {
        bool complete = false;
        Cli::printLine(summary(&complete).toJsonLine()); // with null for what it could not read
    }
    finish(Cli::fail(QStringLiteral("relay: gave up after %1 ms without the database: %2")
                         .arg(down)
                         .arg(cause)));
    return true;
}

void RelayRun::finish(int exitCode)
{
    m_tick.stop();
    QCoreApplication::exit(exitCode);
}

// Figures counted by the workers are exact; figures read from the tables are null when the
// database could not be read, and "unavailable" says why.
TraceEvent RelayRun::summary(bool *complete)
{
    *complete = true;
    auto figure = [&](RelayTally::Figure which) -> QJsonValue {
        const std::optional<qint64> value = *complete ? m_db.count(which) : std::nullopt;
        if (!value)
            *complete = false;
        return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
    };
    const RelayStats stats = m_relay->stats();
    TraceEvent line;
    line.set(QStringLiteral("produced"), m_producer->produced());
    line.set(QStringLiteral("delivered"),
        figure(RelayTally::Figure::Delivered));
    line.set(QStringLiteral("dead"),
        figure(RelayTally::Figure::Dead));
    line.set(QStringLiteral("pending"), figure(RelayTally::Figure::Pending));
    line.set(QStringLiteral("attempts"),
        figure(RelayTally::Figure::Attempts));
    line.set(QStringLiteral("transport_calls"), stats.transportCalls);
    line.set(QStringLiteral("duplicates_suppressed"), stats.duplicatesSuppressed);
    line.set(QStringLiteral("fenced_acks"), stats.fencedAcks);
    line.set(QStringLiteral("lease_expired"),
        figure(RelayTally::Figure::LeaseExpired));
    line.set(QStringLiteral("elapsed_ms"), m_elapsedAtStop);
    const double seconds = std::max<double>(double(m_elapsedAtStop), 1.0) / 1000.0;
    line.set(
        QStringLiteral("events_per_s"), std::round(double(stats.acked) / seconds * 10.0) / 10.0);
    line.set(QStringLiteral("ack_errors"), stats.ackErrors);
    line.set(QStringLiteral("reconnects"), stats.reconnects);
    if (!*complete)
        line.set(QStringLiteral("unavailable"),
            QString(QStringLiteral("database unreachable: ")
                + DatabaseUrl::maskPasswords(m_db.cause())));
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
    RelayRun run(options, db, &producer, &relay);
    return QCoreApplication::exec();
}
