// The event table: delivery_outbox rows (never the payload), filtered and sorted in SQL with
// bound values, fetched a page at a time by keyset (WHERE (key, event_id) > last seen), so the
// first page and a far one cost the same and nothing reads the whole table.
#pragma once

#include "eventfilter.h"

#include <QAbstractTableModel>
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

    explicit EventListModel(QObject *parent = nullptr);

    void setDatabase(const QSqlDatabase &db);
    void setFilter(const EventFilter &filter); // reloads from the first page
    const EventFilter &filter() const { return m_filter; }
    void setNow(qint64 now) { m_now = now; }
    qint64 now() const { return m_now; }
    // Reloads the rows already shown (at least one page), keeping their number stable.
    bool refresh();

    QString eventIdAt(int row) const;
    int rowOfEvent(const QString &eventId) const;
    QString lastError() const { return m_lastError; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

private:
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
    bool load(QList<Row> *rows, int limit, const Row *after);

    QSqlDatabase m_db;
    EventFilter m_filter;
    QList<Row> m_rows;
    qint64 m_now = 0;
    int m_sortColumn = EventIdColumn;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    bool m_atEnd = true;
    bool m_fetching = false;
    QString m_lastError;
};
