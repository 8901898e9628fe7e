// Keeps the event table's selection and the detail pane on the same event. The user's choice
// of row names the event; when the rows change under it (a refresh after a replay, a filter, a
// page dropped) the selection follows that event to its new row, or, when it is no longer
// listed, is cleared while the detail keeps showing the event and says why it is not in the
// table. So an action on "the selected event" never acts on another event than the one shown.
#pragma once

#include "eventfilter.h"

#include <QObject>
#include <QString>

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

private:
    void onCurrentRowChanged();
    void onLoaded();
    void select(int row);
    void showUnlisted();

    QTableView *m_view = nullptr;
    EventListModel *m_model = nullptr;
    DetailPane *m_detail = nullptr;
    QString m_eventId;
    bool m_listed = false;
    EventFilter m_listedUnder; // the filter of the table the event was last seen in
    bool m_moving = false; // this class moves the current row: not the user's choice
};
