#include "advice.h"

#include "plaintext.h"

namespace {

using Surface = Advice::Surface;

QString replayEvent(const QString &id, Surface surface, const OutboxCapabilities &can)
{
    if (!can.replay)
        return QStringLiteral("It cannot be replayed from the database through this profile: %1")
            .arg(can.replayInstead);
    if (surface == Surface::Window)
        return can.resetBudget
            ? QStringLiteral("Replay\u2026 makes it due now with one more attempt, or with a "
                             "fresh budget with \u201cReset the attempt budget\u201d")
            : QStringLiteral("Replay\u2026 releases it with the profile's replay statement");
    const QString command
        = QStringLiteral("outboxctl replay --event ") + PlainText::shellQuoted(id);
    if (!can.resetBudget)
        return QStringLiteral("%1 releases it with the profile's replay statement (with "
                              "--operator and --reason)")
            .arg(command);
    return QStringLiteral("%1 makes it due now with one more attempt, %1 --reset-budget with a "
                          "fresh budget (each with --operator and --reason)")
        .arg(command);
}

QString replayErrorGroup(const QString &signature, Surface surface)
{
    const QString how = surface == Surface::Window
        ? QStringLiteral("Replay group\u2026 on the Errors page")
        : QStringLiteral("outboxctl replay --error-group ") + PlainText::shellQuoted(signature);
    return QStringLiteral("Do not bulk-replay yet: fix the cause of this error first, then replay "
                          "this group (%1).")
        .arg(how);
}

QString readErrors(Surface surface, const OutboxCapabilities &can)
{
    const bool window = surface == Surface::Window;
    QString text = window
        ? QStringLiteral("Read their errors on the Errors page and fix the cause")
        : QStringLiteral("Read their errors (outboxctl errors) and fix the cause");
    if (can.replay)
        text += window ? QStringLiteral(", then replay them")
                       : QStringLiteral(", then replay them (outboxctl replay --error-group)");
    if (can.resolve)
        text += window ? QStringLiteral(", or resolve those that must never be delivered")
                       : QStringLiteral(", or resolve those that must never be delivered "
                                        "(outboxctl resolve)");
    return text + u'.';
}

} // namespace

QString Advice::phrase(Surface surface) const
{
    if (action == AdviceAction::ReplayEvent)
        return replayEvent(subject, surface, can);
    if (action == AdviceAction::ReplayErrorGroup)
        return replayErrorGroup(subject, surface);
    if (action == AdviceAction::ReadErrors)
        return readErrors(surface, can);
    return {};
}

QJsonObject Advice::toJson() const
{
    return {{QStringLiteral("action"), action}, {QStringLiteral("subject"), subject}};
}
