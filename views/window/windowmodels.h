// The models and workers the window makes once and every page reads (PageContext): the event
// list, the detail reader, the health monitor with its history, the aggregates behind the charts
// and the replay log, each worker on its own thread with its own connection, read-only and with
// short timeouts.
#pragma once

#include "page.h"

class QObject;

namespace WindowModels {

// Children of `parent`; `context.clock` is left for the caller.
PageContext make(const DatabaseUrl &url, const std::optional<OutboxProfile> &profile,
    QObject *parent);

} // namespace WindowModels
