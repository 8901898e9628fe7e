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

void DesktopAlerts::observe(
    const QString &outbox, AlertDecider::State state, const QString &figure, const QString &detail)
{
    using State = AlertDecider::State;
    const QString details = state == State::Down ? detail : QString();
    const std::optional<AlertDecider::Alert> alert = m_decider.observe(outbox, state, figure);
    if (!alert) {
        const QString open = m_decider.openText(outbox);
        if (m_bar && !open.isEmpty())
            m_bar->updateAlert(outbox, open, m_decider.isOpenDown(outbox) ? details : QString());
        return;
    }
    const bool recovery = alert->kind == AlertDecider::Alert::Kind::Recovery;
    if (m_useTray)
        tray()->showMessage(QApplication::applicationName(), alert->text,
            recovery                     ? QSystemTrayIcon::Information
                : alert->state == State::Down ? QSystemTrayIcon::Critical
                                              : QSystemTrayIcon::Warning);
    else if (m_bar && recovery)
        m_bar->addRecovery(outbox, alert->text);
    else if (m_bar)
        m_bar->addAlert(outbox, alert->text, details);
    emit alerted(alert->text);
}

void DesktopAlerts::rebase(const QString &outbox)
{
    m_decider.rebase(outbox);
    if (m_bar)
        m_bar->removeAlerts(outbox);
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
