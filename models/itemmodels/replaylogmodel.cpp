#include "replaylogmodel.h"

#include "enginestatements.h"
#include "plaintext.h"
#include "sqldialect.h"
#include "timeformat.h"

#include <QSqlQuery>
#include <QSqlRecord>

ReplayLogModel::ReplayLogModel(QObject *parent)
    : ValueTableModel({tr("When"), tr("Event"), tr("Action"), tr("Operator"), tr("Reason"),
                          tr("Budget"), tr("Failures before")},
        parent)
{ }

namespace {

// One log's rows in the columns of the union: time, order within a time, event, action,
// operator, reason, budget (replays only), failures before. Fixed fragments only; the event ID
// is bound.
QString logRows(const QString &select, const QString &table, bool oneEvent, int index)
{
    return select + QStringLiteral(" FROM ") + table
        + (oneEvent ? QStringLiteral(" WHERE event_id = :id%1").arg(index) : QString());
}

} // namespace

std::optional<SqlRows> ReplayLogModel::readRows(
    const QSqlDatabase &db, const QString &eventId, QString *error, int limit)
{
    const bool oneEvent = !eventId.isEmpty();
    // clang-format off
    QStringList parts = {logRows(QStringLiteral(
        "SELECT replayed_at AS logged_at, replay_id AS seq, event_id, 'replay' AS kind,"
        " operator, reason, reset_failures AS budget, failures_before"),
        QStringLiteral("replay_log"), oneEvent, 0)};
    // resolve_log exists from schema version 2, reopen_log once `outboxctl init` added it.
    if (!db.record(QStringLiteral("resolve_log")).isEmpty())
        parts << logRows(QStringLiteral(
            "SELECT resolved_at, resolve_id, event_id, 'resolve', operator, reason, NULL,"
            " failures_before"), QStringLiteral("resolve_log"), oneEvent, int(parts.size()));
    if (!db.record(QStringLiteral("reopen_log")).isEmpty())
        parts << logRows(QStringLiteral(
            "SELECT reopened_at, reopen_id, event_id, 'reopen', operator, reason, NULL,"
            " failures_before"), QStringLiteral("reopen_log"), oneEvent, int(parts.size()));
    // clang-format on
    QSqlQuery query(db);
    query.setForwardOnly(true);
    const QString all = QStringLiteral("SELECT logged_at, event_id, kind, operator, reason, budget,"
                                       " failures_before FROM (")
        + parts.join(QStringLiteral(" UNION ALL ")) + QStringLiteral(") AS audit")
        + QStringLiteral(" ORDER BY logged_at DESC, seq DESC");
    query.prepare(limit > 0
            ? SqlDialect::of(db).statements().limitedSql(all, QStringLiteral(":limit"))
            : all);
    if (oneEvent) {
        for (int index = 0; index < parts.size(); ++index)
            query.bindValue(QStringLiteral(":id%1").arg(index), eventId);
    }
    if (limit > 0)
        query.bindValue(QStringLiteral(":limit"), limit);
    return readSqlRows(query, ColumnCount, error);
}

std::optional<SqlRows> ReplayLogModel::readProfileRows(
    const QSqlDatabase &store, const QString &outbox, QString *error, int limit)
{
    QSqlQuery query(store);
    query.setForwardOnly(true);
    query.prepare(SqlDialect::of(store).statements().limitedSql(
        QStringLiteral("SELECT acted_at, event_id, action, operator, reason, NULL, NULL, outcome"
                       " FROM profile_audit WHERE outbox = :outbox"
                       " ORDER BY acted_at DESC, audit_id DESC"),
        QStringLiteral(":limit")));
    query.bindValue(QStringLiteral(":outbox"), outbox);
    query.bindValue(QStringLiteral(":limit"), limit);
    std::optional<SqlRows> rows = readSqlRows(query, ColumnCount + 1, error);
    if (!rows)
        return rows;
    for (QVariantList &row : *rows) {
        const QString outcome = row.takeLast().toString();
        if (outcome != QLatin1String("done"))
            row[ActionColumn]
                = QString(row.at(ActionColumn).toString() + u" ("_qs + outcome + u')');
    }
    return rows;
}

void ReplayLogModel::setRows(const QString &eventId, const SqlRows &rows)
{
    if (eventId == m_eventId && rows == this->rows())
        return; // read again after a snapshot, unchanged: nothing to redraw
    beginResetModel();
    m_eventId = eventId;
    storeRows(rows);
    endResetModel();
}

bool ReplayLogModel::load(const QSqlDatabase &db, const QString &eventId)
{
    const std::optional<SqlRows> rows = readRows(db, eventId);
    setRows(eventId, rows.value_or(SqlRows()));
    return rows.has_value();
}

QVariant ReplayLogModel::cellData(int row, int column, int role) const
{
    const QVariant raw = value(row, column);
    if (role == RawValueRole)
        return raw;
    if (role != Qt::DisplayRole)
        return {};
    if (column == WhenColumn && !raw.isNull())
        return TimeFormat::time(raw.toLongLong());
    if (column == BudgetColumn && !raw.isNull())
        return raw.toBool() ? tr("reset") : tr("one more attempt");
    if (column == ActionColumn) {
        const QString action = raw.toString();
        if (action.contains(u' ')) // through a profile: "replay (skipped)"
            return QString(action.left(1).toUpper() + action.mid(1));
        return action == QLatin1String("resolve") ? tr("Resolve")
            : action == QLatin1String("reopen")   ? tr("Reopen")
                                                  : tr("Replay");
    }
    // Event IDs, operators and reasons: controls and invisible characters shown escaped.
    return raw.typeId() == QMetaType::QString ? QVariant(PlainText::escaped(raw.toString())) : raw;
}
