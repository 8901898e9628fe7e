// The event table: delivery_outbox rows (never the payload), filtered and sorted in SQL with
// bound values, fetched a page at a time by keyset (WHERE (key, event_id) > last seen), so the
// first page and a far one cost the same and nothing reads the whole table.
//
// The model holds a bounded window of at most MaxRows rows, however far the user scrolls:
// fetching a page below drops as many rows at the top, and fetchPrevious() brings them back
// (keyset backwards) while dropping rows at the bottom. A view keeps its place by following
// windowShifted() (EventWindowScroller does, and fetches the previous page at the top).
#pragma once

#include "eventfilter.h"
#include "outboxprofile.h"

#include <QAbstractTableModel>
#include <QSet>
#include <QSqlDatabase>

class EventListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        EventIdColumn,
        TypeColumn,
        AggregateColumn,
        StateColumn,
        FailuresColumn,
        AgeColumn,
        NextAttemptColumn,
        ErrorCategoryColumn,
        LastErrorColumn,
        ColumnCount
    };
    enum Role { EventIdRole = Qt::UserRole, StateRole, StatusRole };

    static constexpr int PageSize = 200;
    static constexpr int MaxRows = 10 * PageSize;

    explicit EventListModel(QObject *parent = nullptr);

    void setDatabase(const QSqlDatabase &db);
    // Another library's table read through its profile's source (reloads). A column the
    // schema lacks shows "n/a" and sorts by event ID instead.
    void setProfile(const OutboxProfile &profile);
    bool isColumnAvailable(int column) const { return !m_unavailable.contains(column); }
    void setFilter(const EventFilter &filter); // reloads from the first page
    const EventFilter &filter() const { return m_filter; }
    void setNow(qint64 now) { m_now = now; }
    qint64 now() const { return m_now; }
    // Reloads the window from its first row on (from the very first when the window starts
    // there), at least one page, keeping the number of rows stable.
    bool refresh();
    // Whether rows precede the window, and a page of them brought in at the top.
    bool canFetchPrevious() const { return !m_atStart; }
    void fetchPrevious();

    QString eventIdAt(int row) const;
    int rowOfEvent(const QString &eventId) const;
    QString lastError() const { return m_lastError; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

signals:
    // `rows` rows were added (positive) or dropped (negative) at the top of the window.
    void windowShifted(int rows);

private:
    // Where a keyset page starts relative to an anchor row: after it, at it, or before it.
    enum class Anchor { After, AtOrAfter, Before };

    struct Row
    {
        QString eventId;
        QString eventType;
        QString aggregate;
        QString status;
        int failures = 0;
        qint64 createdAt = 0;
        qint64 nextAttemptAt = 0;
        bool claimed = false;
        qint64 leaseUntil = 0;
        QString errorCategory;
        QString lastError;
        QVariant sortKey;
    };

    QString derivedState(const Row &row) const;
    QString sortExpression() const;
    bool load(QList<Row> *rows, int limit, const Row *anchor, Anchor side = Anchor::After);
    void dropTop();
    void dropBottom();

    QSqlDatabase m_db;
    QString m_source = QStringLiteral("delivery_outbox");
    QSet<int> m_unavailable; // columns the profile's schema lacks
    EventFilter m_filter;
    QList<Row> m_rows;
    qint64 m_now = 0;
    int m_sortColumn = EventIdColumn;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    bool m_atStart = true;
    bool m_atEnd = true;
    bool m_fetching = false;
    QString m_lastError;
};
