// The operators' audit trail: the rows of replay_log, resolve_log and reopen_log (where the
// schema has them) as values, newest first, for every event or one event's, each with its
// action, and times and the budget decision written out for reading. readRows() is the one
// statement, run by whoever owns a connection (the window's detail worker, a test). Through a
// profile, the same columns from the audit store (readProfileRows).
#pragma once

#include "valuetablemodel.h"

#include <QSqlDatabase>
#include <optional>

class ReplayLogModel : public ValueTableModel
{
    Q_OBJECT
public:
    enum Column {
        WhenColumn,
        EventColumn,
        ActionColumn, // "replay", "resolve" or "reopen", shown capitalised
        OperatorColumn,
        ReasonColumn,
        BudgetColumn,
        FailuresBeforeColumn,
        ColumnCount
    };
    enum Role { RawValueRole = Qt::UserRole }; // the stored value: ms or units, the boolean

    // The Audit page holds the newest entries only: a log that grows for years stays a page.
    // "Export replay log…" writes them all.
    static constexpr int AuditRows = 1000;

    explicit ReplayLogModel(QObject *parent = nullptr);

    // Every replay, resolve and reopen, newest first; with an event ID only that event's. At
    // most `limit` rows (0: all). nullopt with *error set when the read failed.
    static std::optional<SqlRows> readRows(const QSqlDatabase &db, const QString &eventId = {},
        QString *error = nullptr, int limit = 0);

    // The audit of the outbox `outbox` through a profile, from the audit store (ProfileAudit's
    // table) in the same columns, newest first: the action with how it ended when that is not
    // "done" ("replay (intended)", "replay (skipped)"); no budget or failures column.
    static std::optional<SqlRows> readProfileRows(
        const QSqlDatabase &store, const QString &outbox, QString *error, int limit);

    void setRows(const QString &eventId, const SqlRows &rows);
    void clear() { setRows({}, {}); }
    // Reads and shows at once, on the calling thread (tests and tools; the window uses a worker).
    bool load(const QSqlDatabase &db, const QString &eventId = {});
    QString eventId() const { return m_eventId; }

protected:
    QVariant cellData(int row, int column, int role) const override;

private:
    QString m_eventId;
};
