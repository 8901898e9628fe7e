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
//
// A lost connection is not a change of the outbox: down alerts only once no figures have come
// for DownGraceMs (a database restart or a failover of a few seconds raises nothing), and when the
// connection heals, the figure shown before it was lost is what the new one is compared with:
// the same figure is no news (no alert, the open alert's row keeps its time), a different one in
// red is an alert even while red is not re-armed ("orders: 2,300 DEAD events (1,971 DEAD events
// before the connection was lost)"). A new story on the same outbox (a teaching scenario
// started: the tables emptied) is forgotten with rebase(): what it shows next is a first sight,
// never a recovery.
#pragma once

#include "healthgrade.h"

#include <QHash>
#include <QString>
#include <QStringList>
#include <functional>
#include <optional>

class AlertDecider
{
public:
    enum class State { Unknown, Healthy, Amber, Red, Down };
    // The state of an outbox that is up and read, from its grade (every fleet view's rule).
    static State ofGrade(HealthGrade::Level level);
    // How long an outbox that stays red or down is quiet before it alerts again: long enough
    // not to nag an operator at work on it, short enough that a forgotten one is noticed.
    static constexpr qint64 QuietPeriodMs = 30 * 60 * 1000;
    // How long an outbox must have had no figures before it is alerted as down: longer than a
    // database restart or a failover (a few seconds), far shorter than the quiet period.
    static constexpr qint64 DownGraceMs = 15 * 1000;
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
    // Whether that open alert is the outbox being down (its row's tooltip names the cause).
    bool isOpenDown(const QString &outbox) const;
    // The outbox's data was replaced (a teaching scenario or storm started): nothing that was
    // seen or alerted before counts; the next state is a first sight.
    void rebase(const QString &outbox);

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
        bool openDown = false; // that text is the outbox being down
        // The newest figures before the connection was lost (state and figure), and when they
        // came: what the figures after it heals are compared with.
        State shown = State::Unknown;
        QString shownFigure;
        qint64 shownAt = -1;
        bool lost = false; // Down observed since the newest figures
    };
    std::optional<Alert> decide(
        Follow &follow, const QString &outbox, State state, bool seen, const QString &text);
    std::optional<Alert> observeDown(
        Follow &follow, const QString &outbox, bool seen, const QString &text);
    std::optional<Alert> observeHealed(
        Follow &follow, const QString &outbox, State state, const QString &figure);

    Clock m_clock;
    QHash<QString, Follow> m_follow; // an outbox seen at least once
};
