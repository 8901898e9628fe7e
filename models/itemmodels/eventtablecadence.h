// The event table's own refresh cadence, apart from the health snapshot's. After a snapshot
// whose figures changed the window asks the table to read its rows again (refreshSoon()); the
// table does so no sooner than its own reads' cost allows, by the rule the snapshot follows
// (HealthMonitor::adaptiveIntervalMs): at most 1/CostFactor of the time on the database, and at
// least once a minute. A 20 ms read refreshes with every snapshot; an unindexed payload search
// of 3 s, once a minute, while the tiles keep their own interval. A read that still runs is never
// queued behind: its answer is as fresh. An operator's own write from this window (an edit, a
// replay, a resolve, a reopen) asks readNow(): the rows are read at once, whatever the spacing,
// and once more after a read that was running when the write ended (it may predate it). Nothing
// here touches a database.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

class EventListModel;

class EventTableCadence : public QObject
{
    Q_OBJECT
public:
    explicit EventTableCadence(EventListModel *model);

    // The outbox changed: read the rows again now, or when the spacing since the last read
    // ended has passed (one timer, however many snapshots ask meanwhile).
    void refreshSoon();
    // The operator changed rows from this window: read them now, not on the cadence; a read
    // under way is followed by one more (its answer may predate the change).
    void readNow();
    // What the last read of the rows cost (a new filter, a sort, a refresh), as the worker saw it.
    qint64 lastCostMs() const { return m_costMs; }
    // The least time between the end of one refresh and the next: 0 for a cheap read.
    int spacingMs() const;
    // Whether a refresh waits for the spacing (a timer runs).
    bool isWaiting() const { return m_due.isActive(); }

signals:
    void spacingChanged(int ms);

private:
    void noteCost(qint64 ms);
    void refreshNow();

    EventListModel *m_model;
    qint64 m_costMs = 0;
    QElapsedTimer m_sinceRead; // since the last read ended
    QTimer m_due;
    bool m_again = false; // readNow() while a read ran: one more when it ends
};
