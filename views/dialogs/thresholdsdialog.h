// Lets the operator set where the health tiles turn amber and red; kept in QSettings
// (thresholds/<tile>/amber and thresholds/<tile>/red).
#pragma once

#include "tilethresholds.h"

#include <QDialog>

class QSpinBox;

class ThresholdsDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ThresholdsDialog(const TileThresholds &current, QWidget *parent = nullptr);

    TileThresholds thresholds() const;

    static TileThresholds load();
    static void save(const TileThresholds &thresholds);

private:
    struct Row
    {
        QSpinBox *amber = nullptr;
        QSpinBox *red = nullptr;
    };
    Row addRow(class QFormLayout *form, const QString &label, const TileLimits &limits,
        const QString &suffix);

    Row m_due;
    Row m_leaseExpired;
    Row m_dead;
    Row m_oldestPending; // seconds on screen, milliseconds in TileThresholds
};
