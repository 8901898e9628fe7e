// What the event table opens on, from outbox-dashboard's --search, --search-mode, --state and
// --sort: a filter and a sort, read with the names the filter bar and the table header use, so
// a link from an alert or a script lands on the right rows. Bad values are refused with one
// line naming what is accepted.
#pragma once

#include "eventfilter.h"

#include <QString>
#include <optional>

struct EventView
{
    EventFilter filter;
    int sortColumn = 5; // EventListModel::AgeColumn, ascending: newest first
    Qt::SortOrder sortOrder = Qt::AscendingOrder;

    // Empty texts leave the defaults. `searchMode`: "id" (ID starts with) or "text" (text
    // contains); `state`: EventFilter::stateNames(); `sort`: EventListModel::sortFromText().
    static std::optional<EventView> fromOptions(const QString &search, const QString &searchMode,
        const QString &state, const QString &sort, QString *error);
};
