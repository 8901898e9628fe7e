#include "reopeningconnection.h"

#include "dbconnection.h"
#include "sqldialect.h"
#include <QSqlError>
#include <QSqlQuery>

namespace {

const qint64 ReopenEveryMs = 250;

} // namespace

void ReopeningConnection::quietServerWarnings(const QSqlDatabase &db)
{
    SqlDialect::of(db).setNoticeLevel(
        db, SqlDialect::NoticeLevel::Error, SqlDialect::Scope::Session);
}

ReopeningConnection::ReopeningConnection(const QSqlDatabase &db, const QElapsedTimer *clock)
    : m_db(db)
    , m_clock(clock)
{
    quietServerWarnings(db);
}

std::optional<qint64> ReopeningConnection::count(RelayTally::Figure figure)
{
    if (!ensureOpen())
        return std::nullopt;
    QString error;
    const std::optional<qint64> value = RelayTally::count(m_db, figure, &error);
    if (!value)
        noteFailure(error);
    return value;
}

bool ReopeningConnection::ensureOpen()
{
    if (!m_downSince)
        return true;
    const qint64 now = m_clock->elapsed();
    if (m_lastAttempt >= 0 && now - m_lastAttempt < ReopenEveryMs)
        return false;
    m_lastAttempt = now;
    if (!DbConnection::reopen(m_db, &m_cause))
        return false;
    m_downSince.reset();
    quietServerWarnings(m_db);
    return true;
}

bool ReopeningConnection::stillAnswers(const QString &error)
{
    if (QSqlQuery(m_db).exec(QStringLiteral("SELECT 1")))
        return true;
    noteFailure(error);
    return false;
}

void ReopeningConnection::noteFailure(const QString &error, std::optional<qint64> since)
{
    const qint64 start = since.value_or(m_clock->elapsed());
    if (!m_downSince) // the first failure names the outage; failed reopens update it
        m_cause = error.isEmpty() ? QStringLiteral("database error") : error.simplified();
    if (!m_downSince || start < *m_downSince)
        m_downSince = start;
    m_lastAttempt = -1; // the first reopen is immediate: the server may be back already
}
