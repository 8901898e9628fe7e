// A database transaction that rolls back unless committed, begun as the engine's dialect begins a
// write (SqlDialect::beginWriteSql(): on SQLite IMMEDIATE, so that a reader which later writes
// never deadlocks against another writer).
#pragma once

#include <QSqlDatabase>

class SqlTransaction
{
public:
    explicit SqlTransaction(const QSqlDatabase &db);
    ~SqlTransaction();
    SqlTransaction(const SqlTransaction &) = delete;
    SqlTransaction &operator=(const SqlTransaction &) = delete;

    bool isActive() const { return m_active; }
    bool commit();
    QString errorText() const { return m_error; }
    // After commit() failed: the COMMIT was sent and its answer never came (the connection was
    // lost, FailureCause::isOutcomeUnknown), so the transaction may have committed or not.
    // False after a refusal (a deadlock, a serialization failure): that rolled back.
    bool isOutcomeUnknown() const { return m_outcomeUnknown; }

private:
    QSqlDatabase m_db;
    bool m_active = false;
    bool m_outcomeUnknown = false;
    QString m_error;
};
