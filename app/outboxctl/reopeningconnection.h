// The connection `outboxctl relay` keeps on its own thread for the producer, the drained check
// and the summary. After a failed statement it is closed and reopened (at most every 250 ms)
// on the same QSqlDatabase handle, so a Producer holding that handle works again once the
// server is back; downSinceMs() says since when it has been unreachable.
#pragma once

#include "relaytally.h"

#include <QElapsedTimer>
#include <QSqlDatabase>
#include <optional>

class ReopeningConnection
{
public:
    // `clock` measures the run; times below are its elapsed milliseconds.
    ReopeningConnection(const QSqlDatabase &db, const QElapsedTimer *clock);

    // One of the run's figures (RelayTally); nothing when it could not be read.
    std::optional<qint64> count(RelayTally::Figure figure);
    // True when the database answers (reopening first if it failed before).
    bool ensureOpen();
    // After a statement failed with `error`: true when the connection still answers (the error
    // was the statement's own); otherwise records the failure and returns false.
    bool stillAnswers(const QString &error);
    // Records a failed statement; `since` backdates the outage (e.g. to a worker's report).
    void noteFailure(const QString &error, std::optional<qint64> since = std::nullopt);
    bool isDown() const { return m_downSince.has_value(); }
    qint64 downMs() const { return m_downSince ? m_clock->elapsed() - *m_downSince : 0; }
    QString cause() const { return m_cause; }

    // PostgreSQL: the server's warnings to this session (such as the one each connection gets
    // as the server shuts down) are not printed; the relay reports an outage itself, once.
    static void quietServerWarnings(const QSqlDatabase &db);

private:
    QSqlDatabase m_db;
    const QElapsedTimer *m_clock = nullptr;
    std::optional<qint64> m_downSince;
    qint64 m_lastAttempt = -1;
    QString m_cause;
};
