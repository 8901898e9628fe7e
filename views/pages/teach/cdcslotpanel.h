// What an operator reads first when a change-data-capture outbox is in trouble, as the
// simulated slot shows it now: is the slot active (and since when not), the consumer's lag, the
// WAL it retains, wal_status, safe_wal_size and the runway at the current WAL rate, and the
// events written but not published (or lost). Each row's tooltip names where PostgreSQL shows
// it.
#pragma once

#include <QGroupBox>

class QFormLayout;
class QLabel;
class SimulatedCdcRelay;

class CdcSlotPanel : public QGroupBox
{
    Q_OBJECT
public:
    explicit CdcSlotPanel(QWidget *parent = nullptr);

    void setRelay(const SimulatedCdcRelay &relay, qint64 nowMs);
    QString lagText() const;
    QString activeText() const;
    QString walStatusText() const;

private:
    QLabel *addRow(
        QFormLayout *form, const QString &name, const QString &objectName, const QString &where);

    QLabel *m_active = nullptr;
    QLabel *m_lag = nullptr;
    QLabel *m_retained = nullptr;
    QLabel *m_walStatus = nullptr;
    QLabel *m_safe = nullptr;
    QLabel *m_runway = nullptr;
    QLabel *m_behind = nullptr;
};
