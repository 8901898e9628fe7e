// The simulator's teaching panel: pick a seed scenario or the live relay, set the relay's
// fault knobs and retry policy, play / pause / step at a chosen speed, watch the clock, and
// read a plain-language narration of every lifecycle step.
#pragma once

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTimer;
class TeachingSession;

class TeachingPanel : public QWidget
{
    Q_OBJECT
public:
    explicit TeachingPanel(TeachingSession *session, QWidget *parent = nullptr);

    QString narrationText() const;

private:
    QWidget *createControls();
    QWidget *createKnobs();
    void connectSession();
    void startSelected();
    void applyLiveFaults();
    void updateState();
    void updateClock();
    void appendNarration(const QStringList &lines);

    TeachingSession *m_session = nullptr;
    QComboBox *m_scenario = nullptr;
    QPushButton *m_start = nullptr;
    QPushButton *m_play = nullptr;
    QPushButton *m_step = nullptr;
    QDoubleSpinBox *m_speed = nullptr;
    QLabel *m_clock = nullptr;
    QDoubleSpinBox *m_transient = nullptr;
    QDoubleSpinBox *m_permanent = nullptr;
    QDoubleSpinBox *m_lostAck = nullptr;
    QDoubleSpinBox *m_stall = nullptr;
    QLineEdit *m_policy = nullptr;
    QSpinBox *m_budget = nullptr;
    QSpinBox *m_workers = nullptr;
    QDoubleSpinBox *m_rate = nullptr;
    QLabel *m_policyError = nullptr;
    QPlainTextEdit *m_narration = nullptr;
    QTimer *m_clockTimer = nullptr;
};
