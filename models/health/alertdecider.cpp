#include "alertdecider.h"

#include <QSettings>
#include <QStringList>

namespace {

const char MutedKey[] = "alerts/muted";

QString textOf(const QString &outbox, AlertDecider::State state, const QString &figure)
{
    if (state == AlertDecider::State::Down)
        return figure.isEmpty() ? outbox + QStringLiteral(": down")
                                : QStringLiteral("%1: down (%2)").arg(outbox, figure);
    return QStringLiteral("%1: %2").arg(outbox, figure);
}

} // namespace

std::optional<AlertDecider::Alert> AlertDecider::observe(
    const QString &outbox, State state, const QString &figure)
{
    if (state == State::Unknown)
        return std::nullopt;
    const bool seen = m_arming.contains(outbox);
    Arming &arming = m_arming[outbox];
    bool crossed = false;
    switch (state) {
    case State::Healthy:
        arming = {};
        break;
    case State::Red:
        crossed = std::exchange(arming.red, false);
        break;
    case State::Down:
        crossed = std::exchange(arming.down, false);
        break;
    case State::Amber:
    case State::Unknown:
        break;
    }
    if (!crossed || !seen || isMuted(outbox))
        return std::nullopt;
    return Alert {outbox, state, textOf(outbox, state, figure)};
}

bool AlertDecider::isMuted(const QString &outbox)
{
    return mutedOutboxes().contains(outbox);
}

QStringList AlertDecider::mutedOutboxes()
{
    return QSettings().value(QLatin1String(MutedKey)).toStringList();
}

void AlertDecider::setMuted(const QString &outbox, bool muted)
{
    QSettings settings;
    QStringList all = settings.value(QLatin1String(MutedKey)).toStringList();
    all.removeAll(outbox);
    if (muted)
        all.append(outbox);
    all.sort();
    settings.setValue(QLatin1String(MutedKey), all);
}
