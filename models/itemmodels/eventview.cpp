#include "eventview.h"

#include "eventlistmodel.h"
#include "payloadsearch.h"
#include "redaction.h"

#include <QSettings>

std::optional<EventView> EventView::fromOptions(const QString &search, const QString &searchMode,
    const QString &state, const QString &sort, QString *error)
{
    static_assert(EventListModel::AgeColumn == 5, "EventView's default sort is Age");
    EventView view;
    view.filter.search = search.trimmed();
    const QString mode = searchMode.trimmed().toLower();
    if (mode == QLatin1String("text")) {
        view.filter.searchMode = EventFilter::SearchMode::Contains;
    } else if (mode == QLatin1String("payload")) { // the filter bar's "payload contains"
        // Checked as the filter bar checks it: bounded, JSON when it looks like JSON, and never
        // on a key redaction hides (a link must not find out a redacted value either).
        QString why;
        PayloadSearch::parse(view.filter.search, Redaction::sensitiveKeys(QSettings()), &why);
        if (!why.isEmpty()) {
            *error = QStringLiteral("--search with --search-mode payload: %1").arg(why);
            return std::nullopt;
        }
        view.filter.payloadContains = view.filter.search;
        view.filter.search.clear();
    } else if (!mode.isEmpty() && mode != QLatin1String("id")) {
        *error = QStringLiteral("unknown search mode \"%1\" (id, text or payload)").arg(searchMode);
        return std::nullopt;
    }
    if (!state.isEmpty()) {
        const auto parsed = EventFilter::stateFromName(state.trimmed());
        if (!parsed) {
            *error = QStringLiteral("unknown state \"%1\" (one of: %2)")
                         .arg(state, EventFilter::stateNames().join(QStringLiteral(", ")));
            return std::nullopt;
        }
        view.filter.state = *parsed;
    }
    if (!sort.isEmpty()) {
        const auto parsed = EventListModel::sortFromText(sort, error);
        if (!parsed)
            return std::nullopt;
        view.sortColumn = parsed->first;
        view.sortOrder = parsed->second;
    }
    return view;
}
