// What an edit changed in an event's JSON payload, as short lines an operator reads (the dry
// run of `outboxctl replay --edit`, the edit dialog, the detail pane's revisions): one line per
// changed leaf, by its path ("items[0].sku"), "~ path: old → new", "+ path: value", "- path".
// Values of sensitive keys are masked (Redaction) unless the caller shows them revealed.
#pragma once

#include "redaction.h"

#include <QJsonValue>
#include <QStringList>

namespace PayloadDiff {

// The changed leaves of `before` → `after` (both JSON text), in document order; empty when
// they are the same JSON. Text that is not JSON is compared as one value at the root.
// `redactor`: masks sensitive values; null shows every value as it is.
QStringList lines(const QString &before, const QString &after, const Redaction::Redactor *redactor);
// "2 changed, 1 added, 1 removed", or "no change".
QString summary(const QStringList &lines);

} // namespace PayloadDiff
