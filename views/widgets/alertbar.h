// The desktop alert where the desktop has no system tray (and under the offscreen platform): a
// bar over the pages' bottom edge (BannerOverlay; the fleet window's at its top) listing the
// alerts, newest first, each with Mute (no more alerts for that outbox, remembered) and ✕
// (dismiss this one). Hidden while it lists none.
#pragma once

#include <QFrame>
#include <QStringList>

class QVBoxLayout;

class AlertBar : public QFrame
{
    Q_OBJECT
public:
    static constexpr int MaxAlerts = 5; // older ones drop off the bottom

    explicit AlertBar(QWidget *parent = nullptr);

    void addAlert(const QString &outbox, const QString &text);
    QStringList texts() const; // newest first
    // Removes every alert of `outbox` (muted, or dismissed by the user).
    void removeAlerts(const QString &outbox);

signals:
    void muteRequested(const QString &outbox);

private:
    QWidget *makeRow(const QString &outbox, const QString &text);
    void removeRow(QWidget *row);

    QVBoxLayout *m_rows = nullptr;
};
