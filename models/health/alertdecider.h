// Decides when a desktop alert is due: once per crossing of an outbox into red (a figure at a
// tile's red limit) or into down (its snapshot fails), naming the outbox and the figure
// ("orders: 3 DEAD events", "billing: down — Cannot reach the database: …"). Each kind fires
// once, then waits until the outbox is healthy again (re-armed); amber neither fires nor re-arms.
// An outbox that stays red or down alerts again after QuietPeriodMs without an alert ("… (still
// after 30 min)"), and one that alerted says so when it is healthy again ("orders: healthy again
// (after 12 min)"). While an alert is open (given, and the outbox not healthy since) its text
// follows the newest figure or cause (openText()), for the alert bar's row. The state an outbox
// is first seen in is a baseline, not a crossing: it is on screen already when the window opens
// (but stays quiet only for the quiet period). An outbox can be muted (remembered in QSettings,
// shared by every window): it is still followed, so unmuting does not replay a crossing that
// happened meanwhile.
#pragma once

#include <QHash>
#include <QString>
#include <QStringList>
#include <functional>
#include <optional>

class AlertDecider
{
public:
    enum class State { Unknown, Healthy, Amber, Red, Down };
    // How long an outbox that stays red or down is quiet before it alerts again: long enough
    // not to nag an operator at work on it, short enough that a forgotten one is noticed.
    static constexpr qint64 QuietPeriodMs = 30 * 60 * 1000;
    // Milliseconds on a clock that never jumps back (default: a steady clock); tests inject one.
    using Clock = std::function<qint64()>;

    struct Alert
    {
        enum class Kind {
            Crossing, // into red or down
            Reminder, // still red or down after the quiet period
            Recovery, // healthy again after an alert
        };
        QString outbox;
        State state = State::Red; // Red or Down; Healthy for a recovery
        QString text; // "orders: 3 DEAD events"
        Kind kind = Kind::Crossing;
    };

    explicit AlertDecider(Clock clock = {});

    // The next state of `outbox`; `figure`: the worst figure (red, amber) or the cause (down). An
    // alert when one is due and the outbox is not muted. Unknown (no answer yet) changes nothing.
    std::optional<Alert> observe(const QString &outbox, State state, const QString &figure);
    // The text of the outbox's open alert as of the newest observation ("orders: 97 DEAD
    // events"); empty when it has none open.
    QString openText(const QString &outbox) const;

    static bool isMuted(const QString &outbox);
    static QStringList mutedOutboxes(); // sorted
    static void setMuted(const QString &outbox, bool muted);

private:
    struct Follow
    {
        bool redArmed = true;
        bool downArmed = true;
        bool alerted = false; // an alert was given since the outbox was last healthy
        qint64 since = 0; // of the first alert (or the baseline) since it was last healthy
        qint64 lastAlertAt = -1; // the newest alert (or the baseline); -1: none since healthy
        QString text; // the open alert's text, following the figure
    };
    std::optional<Alert> decide(Follow &follow, const QString &outbox, State state, bool seen,
        const QString &text);

    Clock m_clock;
    QHash<QString, Follow> m_follow; // an outbox seen at least once
};
