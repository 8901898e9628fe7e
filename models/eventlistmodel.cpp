#include "eventlistmodel.h"

#include "healthsnapshot.h"
#include "readonlytransaction.h"
#include "saturating.h"
#include "timeformat.h"

#include <QSqlError>
#include <QSqlQuery>
#include <algorithm>

EventListModel::EventListModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void EventListModel::setDatabase(const QSqlDatabase &db)
{
    m_db = db;
    setFilter(m_filter);
}

void EventListModel::setProfile(const OutboxProfile &profile)
{
    using C = OutboxProfile::Column;
    m_source = profile.source(
        m_db.isValid() ? OutboxProfile::engineOf(m_db) : OutboxProfile::Engine::PostgreSql);
    m_unavailable.clear();
    const QList<std::pair<int, QList<C>>> needs
        = {{TypeColumn, {C::EventType}}, {AggregateColumn, {C::AggregateType, C::AggregateId}},
            {FailuresColumn, {C::Failures}}, {AgeColumn, {C::CreatedAt}},
            {ErrorCategoryColumn, {C::LastErrorCategory}}, {LastErrorColumn, {C::LastError}}};
    for (const auto &[column, logical] : needs) {
        if (std::none_of(logical.cbegin(), logical.cend(),
                [&profile](C c) { return profile.isAvailable(c); }))
            m_unavailable.insert(column);
    }
    if (!isColumnAvailable(m_sortColumn))
        m_sortColumn = EventIdColumn;
    setFilter(m_filter);
}

void EventListModel::setFilter(const EventFilter &filter)
{
    m_fetching = true;
    beginResetModel();
    m_filter = filter;
    m_rows.clear();
    m_atStart = true;
    m_atEnd = !m_db.isValid() || !load(&m_rows, PageSize, nullptr) || m_rows.size() < PageSize;
    endResetModel();
    m_fetching = false;
}

void EventListModel::sort(int column, Qt::SortOrder order)
{
    if (column == StateColumn || column == AggregateColumn || column == LastErrorColumn
        || !isColumnAvailable(column))
        column = EventIdColumn; // not orderable in SQL by an index; fall back to the identity
    m_sortColumn = column;
    m_sortOrder = order;
    setFilter(m_filter);
}

QString EventListModel::sortExpression() const
{
    switch (m_sortColumn) {
    case TypeColumn:
        return QStringLiteral("event_type");
    case FailuresColumn:
        return QStringLiteral("failures");
    case AgeColumn:
        return QStringLiteral("created_at");
    case NextAttemptColumn:
        return QStringLiteral("next_attempt_at");
    case ErrorCategoryColumn:
        return QStringLiteral("COALESCE(last_error_category, '')");
    default:
        return QStringLiteral("event_id");
    }
}

bool EventListModel::load(QList<Row> *rows, int limit, const Row *anchor, Anchor side)
{
    // Age ascending means newest first, so the Age column sorts created_at the other way round.
    const bool ascending = (m_sortOrder == Qt::AscendingOrder) != (m_sortColumn == AgeColumn);
    // A page before the anchor is read in the opposite order, then turned round.
    const bool forward = ascending != (anchor && side == Anchor::Before);
    const QString key = sortExpression();
    const QString direction = forward ? QStringLiteral(" ASC") : QStringLiteral(" DESC");
    QString sql = QStringLiteral(
                      "SELECT event_id, event_type, aggregate_type, aggregate_id, status, failures,"
                      " created_at, next_attempt_at, claim_token IS NOT NULL, lease_until,"
                      " last_error_category, last_error, %1 FROM ")
                      .arg(key)
        + m_source + QStringLiteral(" WHERE ") + m_filter.whereClause();
    if (anchor) {
        const QString comparison = QLatin1String(forward ? ">" : "<")
            + QLatin1String(side == Anchor::AtOrAfter ? "=" : "");
        sql += QStringLiteral(" AND (%1, event_id) %2 (:k_key, :k_id)").arg(key, comparison);
    }
    sql += QStringLiteral(" ORDER BY %1%2, event_id%2 LIMIT :k_limit").arg(key, direction);

    // A profile's SQL is part of the statement: read it where nothing can be written.
    ReadOnlyTransaction transaction(m_db);
    QSqlQuery *prepared = transaction.prepare(sql);
    if (!prepared) {
        m_lastError = transaction.errorText();
        return false;
    }
    QSqlQuery &query = *prepared;
    m_filter.bindValues(query, m_now);
    if (anchor) {
        query.bindValue(QStringLiteral(":k_key"), anchor->sortKey);
        query.bindValue(QStringLiteral(":k_id"), anchor->eventId);
    }
    query.bindValue(QStringLiteral(":k_limit"), limit);
    if (!query.exec()) {
        m_lastError = query.lastError().text().simplified();
        return false;
    }
    m_lastError.clear();
    while (query.next()) {
        Row row;
        row.eventId = query.value(0).toString();
        row.eventType = query.value(1).toString();
        row.aggregate
            = query.value(2).toString() + QLatin1Char(' ') + query.value(3).toString().trimmed();
        row.status = query.value(4).toString();
        row.failures = query.value(5).toInt();
        row.createdAt = query.value(6).toLongLong();
        row.nextAttemptAt = query.value(7).toLongLong();
        row.claimed = query.value(8).toBool();
        row.leaseUntil = query.value(9).toLongLong();
        row.errorCategory = query.value(10).toString();
        row.lastError = query.value(11).toString();
        row.sortKey = query.value(12);
        rows->append(row);
    }
    if (anchor && side == Anchor::Before)
        std::reverse(rows->begin(), rows->end());
    return true;
}

bool EventListModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && !m_atEnd;
}

void EventListModel::fetchMore(const QModelIndex &parent)
{
    if (parent.isValid() || m_atEnd || m_rows.isEmpty() || m_fetching)
        return;
    QList<Row> page;
    const Row last = m_rows.constLast();
    if (!load(&page, PageSize, &last)) {
        m_atEnd = true;
        return;
    }
    m_atEnd = page.size() < PageSize;
    if (page.isEmpty())
        return;
    // Views may ask for more from inside the insertion signals; one fetch at a time.
    m_fetching = true;
    beginInsertRows({}, int(m_rows.size()), int(m_rows.size() + page.size() - 1));
    m_rows.append(page);
    endInsertRows();
    dropTop();
    m_fetching = false;
}

void EventListModel::fetchPrevious()
{
    if (m_atStart || m_rows.isEmpty() || m_fetching)
        return;
    QList<Row> page;
    const Row first = m_rows.constFirst();
    if (!load(&page, PageSize, &first, Anchor::Before))
        return;
    m_atStart = page.size() < PageSize;
    if (page.isEmpty())
        return;
    m_fetching = true;
    beginInsertRows({}, 0, int(page.size() - 1));
    m_rows = page + m_rows;
    endInsertRows();
    emit windowShifted(int(page.size()));
    dropBottom();
    m_fetching = false;
}

// Rows beyond the window's bound go at the top, after a page came in below.
void EventListModel::dropTop()
{
    const int excess = int(m_rows.size()) - MaxRows;
    if (excess <= 0)
        return;
    beginRemoveRows({}, 0, excess - 1);
    m_rows.remove(0, excess);
    endRemoveRows();
    m_atStart = false;
    emit windowShifted(-excess);
}

void EventListModel::dropBottom()
{
    const int excess = int(m_rows.size()) - MaxRows;
    if (excess <= 0)
        return;
    beginRemoveRows({}, MaxRows, int(m_rows.size()) - 1);
    m_rows.resize(MaxRows);
    endRemoveRows();
    m_atEnd = false;
}

bool EventListModel::refresh()
{
    if (!m_db.isValid())
        return false;
    QList<Row> rows;
    const int wanted = std::max<int>(PageSize, int(m_rows.size()));
    const bool fromStart = m_atStart || m_rows.isEmpty();
    const Row first = fromStart ? Row() : m_rows.constFirst();
    if (!load(&rows, wanted, fromStart ? nullptr : &first, Anchor::AtOrAfter))
        return false;
    if (rows.isEmpty() && !fromStart) { // everything from the window on is gone: start over
        setFilter(m_filter);
        return true;
    }
    const int before = int(m_rows.size());
    const int after = int(rows.size());
    m_fetching = true;
    if (after < before) {
        beginRemoveRows({}, after, before - 1);
        m_rows = rows;
        endRemoveRows();
    } else if (after > before) {
        beginInsertRows({}, before, after - 1);
        m_rows = rows;
        endInsertRows();
    } else {
        m_rows = rows;
    }
    m_atEnd = after < wanted;
    if (after > 0)
        emit dataChanged(index(0, 0), index(after - 1, ColumnCount - 1));
    m_fetching = false;
    return true;
}

QString EventListModel::eventIdAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? m_rows.at(row).eventId : QString();
}

int EventListModel::rowOfEvent(const QString &eventId) const
{
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows.at(i).eventId == eventId)
            return i;
    }
    return -1;
}

int EventListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int EventListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString EventListModel::derivedState(const Row &row) const
{
    if (row.status != QLatin1String("PENDING"))
        return row.status;
    if (!row.claimed)
        return row.nextAttemptAt <= m_now ? QStringLiteral("DUE") : QStringLiteral("SCHEDULED");
    return row.leaseUntil > m_now ? QStringLiteral("IN FLIGHT") : QStringLiteral("LEASE EXPIRED");
}

QVariant EventListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    switch (role) {
    case EventIdRole:
        return row.eventId;
    case StateRole:
        return derivedState(row);
    case StatusRole:
        return row.status;
    case Qt::TextAlignmentRole:
        if (index.column() == FailuresColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    if (!isColumnAvailable(index.column()))
        return QStringLiteral("n/a");
    switch (index.column()) {
    case EventIdColumn:
        return row.eventId;
    case TypeColumn:
        return row.eventType;
    case AggregateColumn:
        return row.aggregate;
    case StateColumn:
        return derivedState(row);
    case FailuresColumn:
        return row.failures;
    case AgeColumn:
        // No age for a time that is none (HealthSnapshot reports such rows too).
        if (row.createdAt < 0)
            return QStringLiteral("before 1970");
        if (row.createdAt > Saturating::add(m_now, HealthSnapshot::FutureToleranceMs))
            return QStringLiteral("in the future");
        // Within the tolerance a row created a little after now is just created, not negative.
        return TimeFormat::isLogical(row.createdAt)
            ? QStringLiteral("%1 units").arg(std::max<qint64>(0, m_now - row.createdAt))
            : TimeFormat::age(std::max<qint64>(0, m_now - row.createdAt));
    case NextAttemptColumn:
        return row.status == QLatin1String("PENDING") && !row.claimed
            ? TimeFormat::relative(row.nextAttemptAt, m_now)
            : QString();
    case ErrorCategoryColumn:
        return row.errorCategory;
    case LastErrorColumn:
        return row.lastError;
    }
    return {};
}

QVariant EventListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char *const titles[ColumnCount] = {"Event ID", "Type", "Aggregate", "State",
        "Failures", "Age", "Next attempt", "Error", "Last error"};
    return section >= 0 && section < ColumnCount ? tr(titles[section]) : QVariant();
}
