// What an operator API request asks for, read strictly from its query or JSON body: an
// unknown parameter or key, a value of the wrong type, a missing reason, an unknown state is
// refused with one line (400) before any database is touched.
#pragma once

#include "apiroute.h"
#include "eventfilter.h"

#include <QByteArray>
#include <QString>
#include <optional>

// GET .../events?state=dead&after=ID&limit=N: a keyset page in event ID order.
struct ApiEventsQuery
{
    static constexpr int DefaultLimit = 100;
    static constexpr int MaxLimit = 500;

    EventFilter::State state = EventFilter::State::Any;
    QString after; // the last ID of the previous page; empty: from the first
    int limit = DefaultLimit;

    static std::optional<ApiEventsQuery> parse(const QByteArray &query, QString *error);
};

// The body of a POST: {"reason": "...", "dry_run": true, ...}.
struct ApiActionBody
{
    QString reason; // required unless dryRun
    bool dryRun = false;
    bool resetBudget = false; // replay: failures back to 0
    // The bulk replay's selection: an error group, a filter of DEAD events, or both.
    QString errorGroup;
    std::optional<EventFilter> filter;
    bool includeOnHold = false;

    static std::optional<ApiActionBody> parse(
        const QByteArray &body, const ApiRoute &route, QString *error);
};
