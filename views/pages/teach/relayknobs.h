// The Teach page's knobs for the live relay: its fault rates (transient, poison, lost
// acknowledgement; applied live), its worker stalls, retry policy, attempt budget, workers and
// the producer's rate (applied on Start), set to the demo's to begin with.
#pragma once

#include "relayconfig.h"

#include <QGroupBox>

class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

class RelayKnobs : public QGroupBox
{
    Q_OBJECT
public:
    explicit RelayKnobs(QWidget *parent = nullptr);

    // The relay as the knobs set it (the demo's for the rest); false, the policy's error shown
    // under its field, for a malformed policy.
    bool readConfig(RelayConfig *config);
    double eventsPerSecond() const;
    // `base` with the three fault rates as set.
    FaultProfile faults(FaultProfile base) const;

signals:
    void faultsChanged(); // a fault rate changed: applied to a running relay at once

private:
    QDoubleSpinBox *m_transient = nullptr;
    QDoubleSpinBox *m_permanent = nullptr;
    QDoubleSpinBox *m_lostAck = nullptr;
    QDoubleSpinBox *m_stall = nullptr;
    QLineEdit *m_policy = nullptr;
    QSpinBox *m_budget = nullptr;
    QSpinBox *m_workers = nullptr;
    QDoubleSpinBox *m_rate = nullptr;
    QLabel *m_policyError = nullptr;
};
