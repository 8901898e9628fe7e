// Keeps the event table's selection and the detail pane on the same event. The user's choice
// of row names the event; when the rows change under it (a refresh after a replay, a filter, a
// page dropped) the selection follows that event to its new row, or, when it is no longer
// listed, is cleared while the detail keeps showing the event and says why it is not in the
// table. So an action on "the selected event" never acts on another event than the one shown.
#pragma once

#include "eventfilter.h"
#include "eventlookup.h"

#include <QObject>
#include <QString>
#include <optional>

class DetailPane;
class EventListModel;
class QTableView;

class EventSelection : public QObject
{
    Q_OBJECT
public:
    // The view shows `model` (directly or through an identity proxy).
    EventSelection(
        QTableView *view, EventListModel *model, DetailPane *detail, QObject *parent = nullptr);

    QString eventId() const { return m_eventId; } // the event chosen, listed or not
    bool isListed() const { return m_listed; }
    // The detail on `eventId`, chosen from elsewhere (a link, --select): its row is selected now
    // or once the rows arrive, and the detail says so if the table does not list it.
    void choose(const QString &eventId);
    // What a lookup of the chosen event found (EventLookup::locate): it names the filter that
    // hides it, or says that no event has this ID, while the table does not list it.
    void setLocation(const EventLocation &location);
    // The words for a located event that the table may not list: "No event with ID …",
    // "… is hidden by State: PENDING. Clear filters …"; empty when the filters show it.
    static QString locationText(const EventLocation &location);

private:
    void onCurrentRowChanged();
    void onLoaded();
    void select(int row);
    void showUnlisted();
    QString unlistedText() const;

    QTableView *m_view = nullptr;
    EventListModel *m_model = nullptr;
    DetailPane *m_detail = nullptr;
    QString m_eventId;
    bool m_listed = false;
    bool m_everListed = false; // listed since it was chosen: it left the view, or never was in it
    std::optional<EventLocation> m_location; // of m_eventId, once looked up
    EventFilter m_listedUnder; // the filter of the table the event was last seen in
    bool m_moving = false; // this class moves the current row: not the user's choice
};
