// The desktop alert where the desktop has no system tray (and under the offscreen platform): a
// bar under the pages (BannerOverlay; the fleet window's at its top) with one row per
// outbox, the newest first, each with Mute (no more alerts for that outbox, remembered) and ✕
// (dismiss this one). An alert's row keeps the time it was given and follows the outbox's figure
// or cause (updateAlert); a recovery replaces it ("✓ orders: healthy again"). Red while it lists
// an alert, plain while it lists only recoveries, hidden while it lists none.
#pragma once

#include <QFrame>
#include <QStringList>

class QLabel;
class QVBoxLayout;

class AlertBar : public QFrame
{
    Q_OBJECT
public:
    static constexpr int MaxAlerts = 5; // older ones drop off the bottom

    explicit AlertBar(QWidget *parent = nullptr);

    // A new alert of `outbox`, replacing its row; `detail` (the driver's words behind a cause)
    // is the row's tooltip.
    void addAlert(const QString &outbox, const QString &text, const QString &detail = {});
    // The open alert's text now, in its row (kept where it is, with its time); nothing when the
    // outbox has no alert row.
    void updateAlert(const QString &outbox, const QString &text, const QString &detail = {});
    // The outbox is healthy again: its row says so.
    void addRecovery(const QString &outbox, const QString &text);
    QStringList texts() const; // newest first
    // Removes every alert of `outbox` (muted, or dismissed by the user).
    void removeAlerts(const QString &outbox);

signals:
    void muteRequested(const QString &outbox);

private:
    void addRow(const QString &outbox, const QString &text, const QString &detail, bool alert);
    QWidget *makeRow(const QString &outbox, const QString &text, const QString &detail, bool alert);
    void removeRow(QWidget *row);
    void restyle();

    QVBoxLayout *m_rows = nullptr;
};
