#include "tablegrants.h"

#include "sqldialect.h"

namespace {

QString key(const QString &privilege, const QString &table)
{
    return privilege + u' ' + table;
}

// The operations on the outbox's events: all refused is "read-only by the database's grants".
const QList<TableGrants::Operation> EventOperations = {TableGrants::Operation::Replay,
    TableGrants::Operation::Resolve, TableGrants::Operation::Reopen, TableGrants::Operation::Purge,
    TableGrants::Operation::Edit};

} // namespace

// The columns each statement sets (Replayer::nativeChange, StateChange): a role granted UPDATE
// on those columns only may still run it. Replay's --reset-budget also sets failures. Edit
// (PayloadEditor) sets the payload with replay's columns and writes its revision first.
QList<TableGrants::Write> TableGrants::needs(Operation operation)
{
    const QString outbox = QStringLiteral("delivery_outbox");
    const QString update = QStringLiteral("UPDATE");
    const QString insert = QStringLiteral("INSERT");
    const QStringList claim
        = {QStringLiteral("status"), QStringLiteral("claim_token"), QStringLiteral("lease_until")};
    switch (operation) {
    case Operation::Replay:
        return {{outbox, update, claim + QStringList {QStringLiteral("next_attempt_at")}},
            {QStringLiteral("replay_log"), insert, {}}};
    case Operation::Resolve:
        return {{outbox, update, claim}, {QStringLiteral("resolve_log"), insert, {}}};
    case Operation::Reopen:
        return {{outbox, update, claim}, {QStringLiteral("reopen_log"), insert, {}}};
    case Operation::Edit:
        return {
            {outbox, update,
                claim + QStringList {QStringLiteral("next_attempt_at"), QStringLiteral("payload")}},
            {QStringLiteral("payload_revision"), insert, {}},
            {QStringLiteral("replay_log"), insert, {}}};
    case Operation::Purge: { // the events, and the rows that reference them (Purger)
        QList<Write> writes;
        for (const QString &table : {outbox, QStringLiteral("delivery_attempt"),
                 QStringLiteral("replay_log"), QStringLiteral("resolve_log"),
                 QStringLiteral("reopen_log"), QStringLiteral("payload_revision")})
            writes.append(Write {table, QStringLiteral("DELETE"), {}});
        return writes;
    }
    case Operation::NoteAdd: // a note written (OperatorNotes::add)
        return {{QStringLiteral("operator_note"), insert, {}}};
    case Operation::NoteClear: // notes marked cleared, kept (OperatorNotes::clear)
        return {{QStringLiteral("operator_note"), update,
            {QStringLiteral("cleared_at"), QStringLiteral("cleared_by")}}};
    }
    return {};
}

TableGrants TableGrants::read(const QSqlDatabase &db, const QList<Write> &writes)
{
    const SqlDialect &dialect = SqlDialect::of(db);
    TableGrants grants;
    grants.m_role = dialect.roleName(db);
    QSet<QString> asked;
    for (const Write &write : writes) {
        const QString name = key(write.privilege, write.table);
        if (asked.contains(name + write.columns.join(u',')))
            continue;
        asked.insert(name + write.columns.join(u','));
        QString error;
        const std::optional<bool> may
            = dialect.mayWrite(db, write.table, write.privilege, write.columns, &error);
        if (!may)
            continue; // unknown: the operation itself will say why it fails
        grants.m_known = true;
        if (!*may)
            grants.m_denied.insert(name);
    }
    return grants;
}

TableGrants TableGrants::read(const QSqlDatabase &db)
{
    QList<Write> writes;
    for (Operation operation : EventOperations)
        writes += needs(operation);
    writes += needs(Operation::NoteAdd) + needs(Operation::NoteClear);
    return read(db, writes);
}

QString TableGrants::refusal(const QString &table, const QString &privilege) const
{
    if (!m_denied.contains(key(privilege, table)))
        return {};
    if (m_role.isEmpty())
        return QStringLiteral("the database file is read-only: this connection may not %1 %2")
            .arg(privilege, table);
    return QStringLiteral("the role '%1' may not %2 %3").arg(m_role, privilege, table);
}

QString TableGrants::refusal(Operation operation) const
{
    const QList<Write> writes = needs(operation);
    for (const Write &write : writes) {
        const QString why = refusal(write.table, write.privilege);
        if (!why.isEmpty())
            return why;
    }
    return {};
}

bool TableGrants::isReadOnly() const
{
    if (!m_known)
        return false;
    for (Operation operation : EventOperations) {
        if (refusal(operation).isEmpty())
            return false;
    }
    return true;
}
