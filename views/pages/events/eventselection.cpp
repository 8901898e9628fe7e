#include "eventselection.h"

#include "detailpane.h"
#include "eventlistmodel.h"

#include <QItemSelectionModel>
#include <QTableView>

EventSelection::EventSelection(
    QTableView *view, EventListModel *model, DetailPane *detail, QObject *parent)
    : QObject(parent)
    , m_view(view)
    , m_model(model)
    , m_detail(detail)
{
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &EventSelection::onCurrentRowChanged);
    connect(m_model, &EventListModel::loaded, this, &EventSelection::onLoaded);
}

void EventSelection::onCurrentRowChanged()
{
    // Rows removed under the current one move it to a neighbour: the model's doing, set right
    // once the answer is applied (onLoaded).
    if (m_moving || m_model->isApplying())
        return;
    const QModelIndex current = m_view->currentIndex();
    if (!current.isValid())
        return; // a reset: the event is looked for again when the rows arrive
    m_eventId = current.data(EventListModel::EventIdRole).toString();
    m_listed = m_everListed = true;
    m_location.reset();
    m_listedUnder = m_model->filter();
    m_detail->setEventId(m_eventId);
    m_detail->setNotice({});
}

void EventSelection::choose(const QString &eventId)
{
    m_eventId = eventId;
    m_listed = m_everListed = false;
    m_location.reset();
    m_listedUnder = m_model->filter();
    m_detail->setEventId(eventId);
    m_detail->setNotice({});
    if (const int row = m_model->rowOfEvent(eventId); row >= 0)
        select(row);
}

void EventSelection::onLoaded()
{
    if (m_eventId.isEmpty())
        return;
    const int row = m_model->rowOfEvent(m_eventId);
    if (row >= 0) {
        select(row);
        return;
    }
    showUnlisted();
}

void EventSelection::select(int row)
{
    const QModelIndex current = m_view->currentIndex();
    const bool onIt = current.isValid() && current.row() == row
        && current.data(EventListModel::EventIdRole).toString() == m_eventId;
    if (!onIt || !m_view->selectionModel()->isRowSelected(row)) {
        m_moving = true;
        m_view->selectionModel()->setCurrentIndex(m_view->model()->index(row, 0),
            QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_moving = false;
    }
    m_listed = m_everListed = true;
    m_listedUnder = m_model->filter();
    m_detail->setNotice({});
}

// Nothing else is highlighted in its place: an action on the selection then has none.
void EventSelection::showUnlisted()
{
    if (m_view->currentIndex().isValid() || m_view->selectionModel()->hasSelection()) {
        m_moving = true;
        m_view->selectionModel()->setCurrentIndex(QModelIndex(), QItemSelectionModel::Clear);
        m_moving = false;
    }
    m_listed = false;
    m_detail->setNotice(unlistedText());
}

void EventSelection::setLocation(const EventLocation &location)
{
    if (location.eventId != m_eventId)
        return; // another event was chosen since
    m_location = location;
    if (!m_listed && !m_model->isLoading()) // else said once the rows arrive (onLoaded)
        m_detail->setNotice(unlistedText());
}

QString EventSelection::locationText(const EventLocation &location)
{
    if (!location.error.isEmpty())
        return tr("Could not look up %1: %2").arg(location.eventId, location.error);
    if (!location.found)
        return tr("No event with ID %1 in this outbox.").arg(location.eventId);
    if (location.hiddenBy.isEmpty())
        return {};
    QStringList names;
    for (const EventFilter::Criterion &criterion : location.hiddenBy)
        names << criterion.text();
    return tr("%1 is hidden by %2. Clear filters to see it in the table; the detail shows it.")
        .arg(location.eventId, names.join(u", "_qs));
}

// Why the table does not list the event the detail shows: it never was in this view (hidden by
// a filter, unknown, or beyond the loaded rows), or it was and left it.
QString EventSelection::unlistedText() const
{
    if (m_everListed) {
        const QString notice = m_model->filter() != m_listedUnder
            ? tr("%1 is hidden by the current filter. The detail still shows it; clear the filter "
                 "to select it again.")
            : tr("%1 is no longer in the current view (it no longer matches the filter or left "
                 "the loaded rows). The detail still shows it.");
        return notice.arg(m_eventId);
    }
    if (m_location) {
        const QString text = locationText(*m_location);
        if (!text.isEmpty())
            return text;
        return tr("%1 matches the filters but is not among the loaded rows (sort or scroll to "
                  "reach it). The detail shows it.")
            .arg(m_eventId);
    }
    const QString filter = m_model->filter().summary();
    return filter.isEmpty()
        ? tr("%1 is not among the loaded rows. The detail shows it.").arg(m_eventId)
        : tr("%1 is not in the current view (filtered: %2). The detail shows it.")
              .arg(m_eventId, filter);
}
