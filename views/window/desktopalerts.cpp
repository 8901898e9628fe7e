#include "desktopalerts.h"

#include "alertbar.h"

#include <QApplication>
#include <QSystemTrayIcon>

DesktopAlerts::DesktopAlerts(AlertBar *bar, QObject *parent)
    : QObject(parent)
    , m_bar(bar)
    , m_useTray(QSystemTrayIcon::isSystemTrayAvailable())
{
    connect(bar, &AlertBar::muteRequested, this,
        [](const QString &outbox) { AlertDecider::setMuted(outbox, true); });
}

void DesktopAlerts::observe(const QString &outbox, AlertDecider::State state, const QString &figure)
{
    const std::optional<AlertDecider::Alert> alert = m_decider.observe(outbox, state, figure);
    if (!alert)
        return;
    if (m_useTray)
        tray()->showMessage(QApplication::applicationName(), alert->text,
            alert->state == AlertDecider::State::Down ? QSystemTrayIcon::Critical
                                                      : QSystemTrayIcon::Warning);
    else if (m_bar)
        m_bar->addAlert(outbox, alert->text);
    emit alerted(alert->text);
}

// One icon for the whole program, shown from the first alert on.
QSystemTrayIcon *DesktopAlerts::tray()
{
    static QPointer<QSystemTrayIcon> icon;
    if (!icon) {
        icon = new QSystemTrayIcon(QApplication::windowIcon(), qApp);
        icon->setToolTip(QApplication::applicationName());
        icon->show();
    }
    return icon;
}
