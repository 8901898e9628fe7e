// Delivers the alerts AlertDecider decides on (crossings, reminders, recoveries): a system tray
// message where the desktop has a tray (QSystemTrayIcon::isSystemTrayAvailable()), otherwise a
// row in the window's AlertBar, whose text then follows the outbox's figure.
// One per window: each window follows its own outboxes' crossings; mutes are shared
// (QSettings).
#pragma once

#include "alertdecider.h"

#include <QObject>
#include <QPointer>

class AlertBar;
class QSystemTrayIcon;

class DesktopAlerts : public QObject
{
    Q_OBJECT
public:
    explicit DesktopAlerts(AlertBar *bar, QObject *parent = nullptr);

    // The outbox's state now (see AlertDecider::observe); delivers an alert when one is due,
    // and otherwise brings the bar's row of its open alert up to the figure or cause of now.
    // `detail`: the driver's words behind a down outbox's cause (the row's tooltip).
    void observe(const QString &outbox, AlertDecider::State state, const QString &figure,
        const QString &detail = {});
    // The outbox's data was replaced (AlertDecider::rebase): its row in the bar goes too, as
    // what it named is gone.
    void rebase(const QString &outbox);
    // For tests: the decider's clock (AlertDecider::Clock).
    void setClock(AlertDecider::Clock clock) { m_decider = AlertDecider(std::move(clock)); }
    // Tray or bar: the bar when there is no tray, or when told so (tests, a screenshot).
    void setUseTray(bool useTray) { m_useTray = useTray; }
    bool usesTray() const { return m_useTray; }

signals:
    void alerted(const QString &text);

private:
    static QSystemTrayIcon *tray();

    AlertDecider m_decider;
    QPointer<AlertBar> m_bar;
    bool m_useTray = false;
};
