// What to do, as data: an action id and what it acts on (an event ID, an error signature), and
// its words for each surface. The explainer and the diagnosis engine decide the advice; the
// window names its own controls ("Replay…", the Errors page), outboxctl the command to run
// ("outboxctl replay --event ID --reset-budget") and never a button. Only what the outbox can
// do is advised (OutboxCapabilities): no budget reset or resolve through a profile without them.
#pragma once

#include "outboxcapabilities.h"

#include <QJsonObject>
#include <QString>

namespace AdviceAction {
inline const QString ReplayEvent = QStringLiteral("replay_event"); // subject: the event ID
inline const QString ReplayErrorGroup
    = QStringLiteral("replay_error_group"); // subject: the signature
inline const QString ReadErrors = QStringLiteral("read_errors");
} // namespace AdviceAction

struct Advice
{
    enum class Surface { Window, Cli };

    QString action; // an AdviceAction, or empty: no advice
    QString subject;
    OutboxCapabilities can {}; // what the outbox offers: nothing else is advised

    bool isEmpty() const { return action.isEmpty(); }
    // The advice in the words of `surface`; empty for no advice or an unknown action.
    QString phrase(Surface surface) const;
    // {"action":"replay_event","subject":"E-1"}
    QJsonObject toJson() const;
};
