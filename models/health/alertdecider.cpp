#include "alertdecider.h"

#include "timeformat.h"

#include <QSettings>
#include <QStringList>
#include <chrono>

namespace {

const char MutedKey[] = "alerts/muted";

qint64 steadyNow()
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

QString textOf(const QString &outbox, AlertDecider::State state, const QString &figure)
{
    if (state == AlertDecider::State::Down)
        return figure.isEmpty() ? outbox + QStringLiteral(": down")
                                : QStringLiteral("%1: down — %2").arg(outbox, figure);
    return QStringLiteral("%1: %2").arg(outbox, figure);
}

// "(after 12 min)", or nothing within a second.
QString after(qint64 ms)
{
    return ms < 1000 ? QString() : QStringLiteral(" (after %1)").arg(TimeFormat::age(ms));
}

} // namespace

AlertDecider::AlertDecider(Clock clock)
    : m_clock(clock ? std::move(clock) : Clock(steadyNow))
{ }

std::optional<AlertDecider::Alert> AlertDecider::observe(
    const QString &outbox, State state, const QString &figure)
{
    if (state == State::Unknown)
        return std::nullopt;
    const bool seen = m_follow.contains(outbox);
    return decide(m_follow[outbox], outbox, state, seen, textOf(outbox, state, figure));
}

std::optional<AlertDecider::Alert> AlertDecider::decide(
    Follow &follow, const QString &outbox, State state, bool seen, const QString &text)
{
    const qint64 now = m_clock();
    const bool muted = isMuted(outbox);
    const bool open = follow.lastAlertAt >= 0;
    switch (state) {
    case State::Healthy: {
        const bool recovered = follow.alerted;
        const qint64 since = follow.since;
        follow = {}; // re-armed
        if (!recovered || muted)
            return std::nullopt;
        return Alert {outbox, state,
            QStringLiteral("%1: healthy again%2").arg(outbox, after(now - since)),
            Alert::Kind::Recovery};
    }
    case State::Amber:
        if (open)
            follow.text = text; // the open alert follows the figure
        return std::nullopt;
    case State::Red:
    case State::Down:
        break;
    case State::Unknown:
        return std::nullopt;
    }
    const bool crossed = std::exchange(
        state == State::Red ? follow.redArmed : follow.downArmed, false);
    if (!open)
        follow.since = now;
    follow.text = text;
    if (!(crossed && seen)) {
        // The first sight is a baseline; a state already alerted waits for the quiet period.
        if (!open) {
            follow.lastAlertAt = now;
            return std::nullopt;
        }
        if (now - follow.lastAlertAt < QuietPeriodMs)
            return std::nullopt;
    }
    const Alert::Kind kind = crossed && seen ? Alert::Kind::Crossing : Alert::Kind::Reminder;
    follow.lastAlertAt = now;
    if (muted)
        return std::nullopt;
    follow.alerted = true;
    return Alert {outbox, state,
        kind == Alert::Kind::Crossing
            ? text
            : QStringLiteral("%1 (still after %2)").arg(text, TimeFormat::age(now - follow.since)),
        kind};
}

QString AlertDecider::openText(const QString &outbox) const
{
    const auto it = m_follow.constFind(outbox);
    return it != m_follow.cend() && it->alerted ? it->text : QString();
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
