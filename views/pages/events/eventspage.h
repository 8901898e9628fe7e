// The Events page: the filter bar, the event table and its status line, and beside the table the
// selected event's detail (summary, attempts, retry timeline, payload, replays). Whatever asks
// for an event (a tile, an error group, a finding's "Show events", --select) shows it here.
// The table pages through EventListModel's worker; the detail reads through DetailReader's.
#pragma once

#include "page.h"

#include "eventfilter.h"
#include "outboxprofile.h"

#include <QWidget>
#include <functional>
#include <optional>

class ActiveFilterBar;
class ColumnFitter;
class DetailPane;
class DetailReader;
class EventSelection;
class EventListModel;
class FilterBar;
class QSplitter;
class QTableView;
class StatusColorProxy;
struct EventLocation;

class EventsPage : public QWidget, public Page
{
    Q_OBJECT
public:
    static inline const QString Key = QStringLiteral("events");

    using Clock = std::function<qint64()>;

    EventsPage(EventListModel *events, DetailReader *reader,
        const std::optional<OutboxProfile> &profile, Clock clock, QWidget *parent = nullptr);

    FilterBar *filterBar() const { return m_filterBar; }
    ActiveFilterBar *activeFilter() const { return m_activeFilter; }
    QTableView *eventView() const { return m_view; }
    DetailPane *detailPane() const { return m_detail; }
    QSplitter *splitter() const { return m_splitter; }
    ColumnFitter *fitter() const { return m_fitter; }

    void openEventView(const EventFilter &filter, int column, Qt::SortOrder order);
    // True once the detail shows it (the event is among the loaded rows).
    bool selectEvent(const QString &eventId);
    // The first loaded row with this status selected; when none is loaded yet (the tiles saw it
    // before the table's next read), the rows are read at once and the search runs once more.
    bool selectFirstEventWithStatus(const QString &status);
    // The detail on this event at once, its row selected once loaded (EventSelection::choose);
    // the event looked up by its ID meanwhile, so that the line above the table and the detail
    // say which filter hides it, or that no event has this ID (Find event, --select, a link).
    void openEvent(const QString &eventId);
    void focusFind(); // Ctrl+F: the Find event field
    StatusColorProxy *colours() const { return m_colours; }

    // The page contract (page.h).
    QWidget *focusTarget() const override; // the event table
    QWidget *searchField() const override; // the filter bar's search
    void outboxChanged(const HealthSnapshot &snapshot, bool figuresChanged) override;

protected:
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void setupTable();
    void makeRoomForKeyColumns();
    QWidget *createList();
    void setupSplitter();
    void applyFilter(const EventFilter &filter);
    void connectFilterLine();
    void updateSearching();
    void showLocation(const EventLocation &location);
    bool selectFirstLoaded(const QString &status);

    EventListModel *m_events = nullptr;
    FilterBar *m_filterBar = nullptr;
    ActiveFilterBar *m_activeFilter = nullptr;
    QTableView *m_view = nullptr;
    DetailPane *m_detail = nullptr;
    QSplitter *m_splitter = nullptr;
    ColumnFitter *m_fitter = nullptr;
    EventSelection *m_selection = nullptr;
    DetailReader *m_reader = nullptr;
    Clock m_clock;
    StatusColorProxy *m_colours = nullptr;
    QString m_finding; // the event ID Find event looks up
    QString m_wantedStatus; // selectFirstEventWithStatus() waiting for the next read
    EventFilter m_rowsFilter; // the filter the rows shown were read with
    bool m_splitterMoved = false; // the operator's divider: never moved for them
};
