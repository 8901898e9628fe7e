#include "advice.h"

#include "plaintext.h"

namespace {

QString replayEvent(const QString &id, Advice::Surface surface)
{
    if (surface == Advice::Surface::Window)
        return QStringLiteral("Replay\u2026 makes it due now with one more attempt, or with a "
                              "fresh budget with \u201cReset the attempt budget\u201d");
    const QString command
        = QStringLiteral("outboxctl replay --event ") + PlainText::shellQuoted(id);
    return QStringLiteral("%1 makes it due now with one more attempt, %1 --reset-budget with a "
                          "fresh budget (each with --operator and --reason)")
        .arg(command);
}

QString replayErrorGroup(const QString &signature, Advice::Surface surface)
{
    const QString how = surface == Advice::Surface::Window
        ? QStringLiteral("Replay group\u2026 on the Errors page")
        : QStringLiteral("outboxctl replay --error-group ") + PlainText::shellQuoted(signature);
    return QStringLiteral("Do not bulk-replay yet: fix the cause of this error first, then replay "
                          "this group (%1).")
        .arg(how);
}

QString readErrors(Advice::Surface surface)
{
    if (surface == Advice::Surface::Window)
        return QStringLiteral("Read their errors on the Errors page and fix the cause, then "
                              "replay them, or resolve those that must never be delivered.");
    return QStringLiteral("Read their errors (outboxctl errors) and fix the cause, then replay "
                          "them (outboxctl replay --error-group), or resolve those that must "
                          "never be delivered (outboxctl resolve).");
}

} // namespace

QString Advice::phrase(Surface surface) const
{
    if (action == AdviceAction::ReplayEvent)
        return replayEvent(subject, surface);
    if (action == AdviceAction::ReplayErrorGroup)
        return replayErrorGroup(subject, surface);
    if (action == AdviceAction::ReadErrors)
        return readErrors(surface);
    return {};
}

QJsonObject Advice::toJson() const
{
    return {{QStringLiteral("action"), action}, {QStringLiteral("subject"), subject}};
}
