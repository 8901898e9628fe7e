// The single-outbox window's desktop alerts: after each snapshot, whether a tile turned red (by
// the tiles' own limits, HealthGrade) or the outbox went down (stale), handed to DesktopAlerts
// under the outbox's name.
#pragma once

#include <QObject>

class AlertBar;
class DesktopAlerts;
class HealthMonitor;
class HealthTiles;

class WindowAlerts : public QObject
{
    Q_OBJECT
public:
    WindowAlerts(HealthMonitor *monitor, HealthTiles *tiles, const QString &outbox, AlertBar *bar,
        QObject *parent = nullptr);

    DesktopAlerts *alerts() const { return m_alerts; }
    QString outbox() const { return m_outbox; }
    // The outbox's data was replaced (a teaching scenario started): what it shows next is a
    // first sight, never a recovery (DesktopAlerts::rebase).
    void rebase();

private:
    void update();

    HealthMonitor *m_monitor = nullptr;
    HealthTiles *m_tiles = nullptr;
    QString m_outbox;
    DesktopAlerts *m_alerts = nullptr;
};
