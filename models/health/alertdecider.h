// Decides when a desktop alert is due: once per crossing of an outbox into red (a figure at a
// tile's red limit) or into down (its snapshot fails), naming the outbox and the figure
// ("orders: 3 DEAD events", "billing: down (…)"). Each kind fires once, then waits until the
// outbox is healthy again (re-armed); amber neither fires nor re-arms. The state an outbox is
// first seen in is a baseline, not a crossing: it is on screen already when the window opens.
// An outbox can be muted (remembered in QSettings, shared by every window): it is still
// followed, so unmuting does not replay a crossing that happened meanwhile.
#pragma once

#include <QHash>
#include <QString>
#include <QStringList>
#include <optional>

class AlertDecider
{
public:
    enum class State { Unknown, Healthy, Amber, Red, Down };

    struct Alert
    {
        QString outbox;
        State state = State::Red; // Red or Down
        QString text; // "orders: 3 DEAD events"
    };

    // The next state of `outbox`; `figure`: the worst figure (red) or the cause (down). An alert
    // when this is a crossing and the outbox is not muted. Unknown (no answer yet) changes
    // nothing.
    std::optional<Alert> observe(const QString &outbox, State state, const QString &figure);

    static bool isMuted(const QString &outbox);
    static QStringList mutedOutboxes(); // sorted
    static void setMuted(const QString &outbox, bool muted);

private:
    struct Arming
    {
        bool red = true;
        bool down = true;
    };
    QHash<QString, Arming> m_arming; // an outbox seen at least once
};
