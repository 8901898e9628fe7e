#include "attemptmodel.h"

#include "sourcereader.h"
#include "timeformat.h"

#include <QSqlQuery>
#include <algorithm>

AttemptModel::AttemptModel(QObject *parent)
    : ValueTableModel({tr("#"), tr("Worker"), tr("Claimed"), tr("Finished"), tr("Outcome"),
                          tr("Error"), tr("Message"), tr("Consumer"), tr("Next due")},
        parent)
{ }

std::optional<SqlRows> AttemptModel::readRows(
    const QSqlDatabase &db, const QString &eventId, QString *error)
{
    bool cut = false;
    return readRows(db, nullptr, eventId, error, &cut);
}

std::optional<SqlRows> AttemptModel::readRows(const QSqlDatabase &db, const OutboxProfile *profile,
    const QString &eventId, QString *error, bool *cut, const QString &eventStatus)
{
    SourceReader reader(db, profile);
    if (!reader.hasAttemptList())
        return SqlRows();
    // clang-format off
    QSqlQuery *query = reader.run(reader.limited(
        u"SELECT attempt_no, worker, claimed_at, finished_at, outcome, error_category,"
        "       error_message, consumer_result, next_attempt_at"
        "  FROM "_qs + reader.attemptSource(u":id"_qs) + u" WHERE event_id = :id"
        " ORDER BY attempt_no DESC"_qs, u":limit"_qs),
        {{u":id"_qs, eventId}, {u":limit"_qs, AttemptMapping::ReadLimit + 1}});
    // clang-format on
    if (!query) {
        if (error)
            *error = reader.errorText();
        return std::nullopt;
    }
    std::optional<SqlRows> rows = readSqlRows(*query, ColumnCount, error);
    if (!rows)
        return std::nullopt;
    *cut = rows->size() > AttemptMapping::ReadLimit;
    if (*cut)
        rows->removeLast(); // the oldest of those read
    if (!rows->isEmpty()) {
        // Only an inferred outcome replaces what was read: an open attempt's NULL stays NULL
        // (the pane tells "in flight" from "LEASE EXPIRED" by it).
        QVariant &newest = (*rows)[0][OutcomeColumn];
        const QString outcome = reader.newestOutcome(newest.toString(), eventStatus);
        if (outcome != newest.toString())
            newest = outcome;
    }
    std::reverse(rows->begin(), rows->end());
    return rows;
}

std::optional<QVariant> AttemptModel::readLeaseUntil(
    const QSqlDatabase &db, const QString &eventId, QString *error)
{
    QSqlQuery query(db);
    query.setForwardOnly(true);
    query.prepare(
        QStringLiteral("SELECT CASE WHEN claim_token IS NULL THEN NULL ELSE lease_until END"
                       "  FROM delivery_outbox WHERE event_id = :id"));
    query.bindValue(QStringLiteral(":id"), eventId);
    const std::optional<SqlRows> rows = readSqlRows(query, 1, error);
    if (!rows)
        return std::nullopt;
    return rows->isEmpty() ? QVariant() : rows->first().value(0);
}

void AttemptModel::setRows(const QString &eventId, const SqlRows &rows, bool leaseRunning)
{
    const SqlRows shown = eventId.isEmpty() ? SqlRows() : rows;
    if (eventId == m_eventId && shown == this->rows() && leaseRunning == m_leaseRunning)
        return; // read again after a snapshot, unchanged: the table and timeline stay as drawn
    beginResetModel();
    m_eventId = eventId;
    storeRows(shown);
    m_leaseRunning = leaseRunning;
    endResetModel();
}

QString AttemptModel::outcome(int row) const
{
    const QVariant stored = value(row, OutcomeColumn);
    if (!stored.isNull())
        return stored.toString();
    // Only the newest attempt can still run, and only while its claim's lease does.
    const bool newest = row == rowCount() - 1;
    return newest && m_leaseRunning ? QString() : QStringLiteral("LEASE_EXPIRED");
}

bool AttemptModel::setEvent(const QSqlDatabase &db, const QString &eventId)
{
    const std::optional<SqlRows> rows = readRows(db, eventId);
    setRows(eventId, rows.value_or(SqlRows()));
    return rows.has_value();
}

QVariant AttemptModel::cellData(int row, int column, int role) const
{
    if (role == RawValueRole)
        return value(row, column);
    if (role == OutcomeRole)
        return column == OutcomeColumn ? QVariant(outcome(row)) : QVariant();
    return role == Qt::DisplayRole ? display(row, column) : QVariant();
}

QVariant AttemptModel::display(int row, int column) const
{
    const QVariant raw = value(row, column);
    const bool isTime
        = column == ClaimedColumn || column == FinishedColumn || column == NextAttemptColumn;
    if (isTime && !raw.isNull())
        return TimeFormat::time(raw.toLongLong());
    if (column == OutcomeColumn) {
        const QString word = outcome(row);
        if (word.isEmpty())
            return tr("in flight");
        return word == QLatin1String("LEASE_EXPIRED") ? tr("LEASE EXPIRED") : word;
    }
    return raw;
}
