// The simulator's teaching panel: pick a seed scenario, the outage storm or the live relay, set
// the relay's fault knobs and retry policy or the storm's policy, play / pause / step at a
// chosen speed, watch the clock, and read a plain-language narration of every lifecycle step;
// a scenario ends with the claim it proves, the storm is charted as its clock moves.
#pragma once

#include <QStringList>
#include <QWidget>
#include <optional>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTimer;
class StormChart;
class TeachingSession;
class HealthMonitor;
struct HealthSnapshot;

class TeachingPanel : public QWidget
{
    Q_OBJECT
public:
    explicit TeachingPanel(TeachingSession *session, QWidget *parent = nullptr);

    // A scenario's Start empties the simulation tables: above this many rows it asks first.
    static constexpr qint64 ConfirmAboveRows = 1000;

    // Starts `name` (a seed scenario or outage-storm, under `stormPolicy` if one is given) as
    // Start does, without the Start guard: for outbox-dashboard --demo --scenario, whose
    // database is recreated on every start.
    bool startByName(const QString &name, const QString &stormPolicy = {});
    QString narrationText() const;
    QString claimText() const; // the ended scenario's claim as shown; empty before
    StormChart *stormChart() const { return m_stormChart; }
    // The outbox's row count, as the monitor's snapshots tell it (read on its worker thread):
    // what the Start guard names.
    void watch(HealthMonitor *monitor);
    void setRowCount(qint64 rows, bool estimated);
    std::optional<qint64> rowCount() const { return m_rows; }
    // The narration keeps its newest lines only: a demo left running for days stays small.
    static constexpr int NarrationLines = 500;
    // Lines that arrived while the pointer rests on the narration (shown when it leaves), the
    // newest NarrationLines of them: the narration would drop older ones anyway.
    int heldLines() const { return int(m_held.size()); }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QWidget *createControls();
    void createScenarioPicker();
    void createStormPolicy();
    void createButtons();
    void connectControls();
    QWidget *createKnobs();
    void connectSession();
    void startSelected();
    void startChosen();
    void showChoiceSettings(); // the knobs of what the picker names, only
    void startStorm();
    void updateStorm();
    void showClaim(const QString &claim, bool holds);
    void applyLiveFaults();
    void updateState();
    void updateClock();
    void appendNarration(const QStringList &lines);
    void clearTold(); // the narration, its held lines and the claim
    bool confirmStart(const QString &scenario);
    void setNarrationHeld(bool held);

    TeachingSession *m_session = nullptr;
    QComboBox *m_scenario = nullptr;
    QPushButton *m_start = nullptr;
    QComboBox *m_stormPolicy = nullptr;
    QWidget *m_stormSettings = nullptr; // shown while the storm is picked
    QWidget *m_knobs = nullptr; // shown while the live relay is picked
    QLabel *m_stormPolicyError = nullptr;
    StormChart *m_stormChart = nullptr;
    QLabel *m_claim = nullptr;
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
    QLabel *m_heldNote = nullptr;
    std::optional<qint64> m_rows; // unknown until the first snapshot
    bool m_rowsEstimated = false;
    bool m_narrationHeld = false;
    QStringList m_held;
    int m_heldArrived = 0; // lines arrived while held, kept or not
};
