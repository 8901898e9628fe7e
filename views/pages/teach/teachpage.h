// The Teach page (a simulation database only): pick a seed scenario (by what it teaches), the
// outage storm or the live relay, set the relay's fault knobs and retry policy or the storm's
// policy, play / pause / step at a chosen speed, watch the clock, the lifecycle diagram that
// highlights each transition as it is taken (a Step is one: a claim, a call, an outcome), and
// read a plain-language narration of every step; a scenario ends with the claim it proves, the
// storm is charted (its policy and the one it is compared with, side by side) as its clock
// moves, and the tiles and the diagram count its events as the narration tells them. All that
// is the "Polling relay" pane; beside it, "Change data capture" teaches the other relay path
// (CdcLessonView).
#pragma once

#include "narrationview.h"
#include "page.h"

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
class QTabWidget;
class CdcLessonView;
class QTimer;
class RelayKnobs;
class LifecycleDiagram;
class StormChart;
class TeachingSession;
class HealthMonitor;
struct HealthCounts;
struct HealthSnapshot;
class TraceEvent;

class TeachPage : public QWidget, public Page
{
    Q_OBJECT
public:
    static inline const QString Key = QStringLiteral("teach");

    explicit TeachPage(TeachingSession *session, QWidget *parent = nullptr);
    // The page on the window's monitor: a session's bursts become one refresh, and the storm's
    // counts on its clock replace the database's (which holds its end) on every surface.
    void follow(HealthMonitor *monitor);
    // The demo: the simulated relay runs from the start (a failure is told in the narration).
    void startDemo();

    // A scenario's Start empties the simulation tables: above this many rows it asks first.
    static constexpr qint64 ConfirmAboveRows = 1000;

    // Starts `name` (a seed scenario or outage-storm, under `stormPolicy` if one is given) as
    // Start does, without the Start guard: for outbox-dashboard --demo --scenario, whose
    // database is recreated on every start. CdcLesson::Name shows the change-data-capture
    // pane with its connector stalled.
    bool startByName(const QString &name, const QString &stormPolicy = {});
    QString narrationText() const;
    QString claimText() const; // the ended scenario's claim as shown; empty before
    StormChart *stormChart() const { return m_stormChart; }
    LifecycleDiagram *diagram() const { return m_diagram; }
    CdcLessonView *cdcLesson() const { return m_cdc; } // the "Change data capture" pane
    // The picked scenario's one-line description, as shown under the picker.
    QString descriptionText() const;
    // The storm's events by state at the session's clock; none outside the storm.
    std::optional<HealthCounts> toldCounts() const;
    // The outbox's row count, as the monitor's snapshots tell it (read on its worker thread):
    // what the Start guard names.
    void setRowCount(qint64 rows, bool estimated);
    std::optional<qint64> rowCount() const { return m_rows; }
    // The narration keeps its newest lines only: a demo left running for days stays small.
    static constexpr int NarrationLines = NarrationView::Lines;
    // Lines that arrived while the pointer rests on the narration (shown when it leaves), the
    // newest NarrationLines of them: the narration would drop older ones anyway.
    int heldLines() const { return m_narration->heldLines(); }

    // The page contract (page.h).
    QWidget *focusTarget() const override; // the scenario picker
    void outboxChanged(const HealthSnapshot &snapshot, bool figuresChanged) override;

private:
    QWidget *createPaths(QWidget *polling);
    QWidget *createControls();
    QLayout *createStage(); // the diagram and the storm's chart above the narration
    void showTransition(const TraceEvent &event);
    void createScenarioPicker();
    void createStormPolicy();
    void createButtons();
    void connectControls();
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

    TeachingSession *m_session = nullptr;
    QTabWidget *m_paths = nullptr; // polling relay, change data capture
    CdcLessonView *m_cdc = nullptr;
    QComboBox *m_scenario = nullptr;
    QLabel *m_description = nullptr; // the picked scenario in a sentence
    LifecycleDiagram *m_diagram = nullptr;
    QPushButton *m_start = nullptr;
    QComboBox *m_stormPolicy = nullptr;
    QWidget *m_stormSettings = nullptr; // shown while the storm is picked
    RelayKnobs *m_knobs = nullptr; // shown while the live relay is picked
    QLabel *m_stormPolicyError = nullptr;
    StormChart *m_stormChart = nullptr;
    QLabel *m_claim = nullptr;
    QPushButton *m_play = nullptr;
    QPushButton *m_step = nullptr;
    QDoubleSpinBox *m_speed = nullptr;
    QLabel *m_clock = nullptr;
    NarrationView *m_narration = nullptr;
    QTimer *m_clockTimer = nullptr;
    std::optional<qint64> m_rows; // unknown until the first snapshot
    bool m_rowsEstimated = false;
};
