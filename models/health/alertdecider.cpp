#include "alertdecider.h"

#include "timeformat.h"

#include <QSettings>
#include <QStringList>
#include <chrono>
#include <utility>

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
    Follow &follow = m_follow[outbox];
    const QString text = textOf(outbox, state, figure);
    if (state == State::Down)
        return observeDown(follow, outbox, seen, text);
    std::optional<Alert> alert = follow.lost ? observeHealed(follow, outbox, state, figure)
                                             : decide(follow, outbox, state, seen, text);
    // After deciding: a recovery starts the follow afresh, but not what was shown last.
    follow.shown = state;
    follow.shownFigure = figure;
    follow.shownAt = m_clock();
    follow.lost = false;
    return alert;
}

// Within DownGraceMs of the newest figures the outbox is not down yet: those figures stand (the
// stale banner says the connection was lost) and nothing is alerted.
std::optional<AlertDecider::Alert> AlertDecider::observeDown(
    Follow &follow, const QString &outbox, bool seen, const QString &text)
{
    follow.lost = true;
    if (seen && follow.shownAt >= 0 && m_clock() - follow.shownAt < DownGraceMs)
        return std::nullopt;
    return decide(follow, outbox, State::Down, seen, text);
}

// The first figures after a lost connection, against those before it: the same figure is no
// news; a different one in red is, whether or not red is armed.
std::optional<AlertDecider::Alert> AlertDecider::observeHealed(
    Follow &follow, const QString &outbox, State state, const QString &figure)
{
    const State before = follow.shown;
    const QString beforeFigure = follow.shownFigure;
    const QString text = textOf(outbox, state, figure);
    if (state == before && figure == beforeFigure && state != State::Healthy) {
        if (follow.lastAlertAt >= 0) { // the open alert's row: the figure again, not the cause
            follow.text = text;
            follow.openDown = false;
        }
        return std::nullopt;
    }
    if (state != State::Red || before != State::Red)
        return decide(follow, outbox, state, true, text);
    follow.redArmed = true; // changed while nobody could see it: news
    return decide(follow, outbox, state, true,
        QStringLiteral("%1 (%2 before the connection was lost)").arg(text, beforeFigure));
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
        if (open) {
            follow.text = text; // the open alert follows the figure
            follow.openDown = false;
        }
        return std::nullopt;
    case State::Red:
    case State::Down:
        break;
    case State::Unknown:
        return std::nullopt;
    }
    const bool crossed
        = std::exchange(state == State::Red ? follow.redArmed : follow.downArmed, false);
    if (!open)
        follow.since = now;
    follow.text = text;
    follow.openDown = state == State::Down;
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

bool AlertDecider::isOpenDown(const QString &outbox) const
{
    const auto it = m_follow.constFind(outbox);
    return it != m_follow.cend() && it->alerted && it->openDown;
}

void AlertDecider::rebase(const QString &outbox)
{
    m_follow.remove(outbox);
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

AlertDecider::State AlertDecider::ofGrade(HealthGrade::Level level)
{
    switch (level) {
    case HealthGrade::Level::Red:
        return State::Red;
    case HealthGrade::Level::Amber:
        return State::Amber;
    case HealthGrade::Level::Normal:
        break;
    }
    return State::Healthy;
}
