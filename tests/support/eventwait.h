// The event table reads on its own thread: tests point it at their database and wait for its
// answers as the window does, through the event loop.
#pragma once

#include "eventlistmodel.h"
#include "testdatabase.h"

#include <QtTest>

// Points the model's worker at the test database (read-only, as the window does).
inline void openEvents(EventListModel &model, const TestDatabase &database,
    const OpenOptions &options = EventListModel::defaultOpenOptions())
{
    model.setSource(DatabaseUrl::parse(database.url(), nullptr), options);
}

// True once the model's newest read has been answered (rows applied, or an error reported).
inline bool settled(const EventListModel &model, int timeoutMs = 30000)
{
    return QTest::qWaitFor([&model] { return !model.isLoading(); }, timeoutMs);
}

// Every row the filter matches, page after page.
inline QStringList allIds(EventListModel &model)
{
    while (model.canFetchMore({})) {
        model.fetchMore({});
        if (!settled(model))
            return {u"timed out"_qs};
    }
    QStringList out;
    for (int row = 0; row < model.rowCount(); ++row)
        out << model.eventIdAt(row);
    return out;
}
