#include "teachpage.h"

#include "cdclesson.h"
#include "cdclessonview.h"
#include "healthmonitor.h"
#include "lifecyclediagram.h"
#include "narrationview.h"
#include "outagestorm.h"
#include "relayknobs.h"
#include "scenario.h"
#include "stormchart.h"
#include "teachingsession.h"
#include "themecolours.h"
#include "timeformat.h"
#include "traceevent.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QTabWidget>
#include <QTimer>

namespace {

void keepPlaceWhenHidden(QWidget *widget)
{
    QSizePolicy policy = widget->sizePolicy();
    policy.setRetainSizeWhenHidden(true);
    widget->setSizePolicy(policy);
}

// As wide as the widest of `texts` ever shown in it, so a change of text moves nothing.
void fitWidestText(QWidget *widget, const QStringList &texts)
{
    int widest = 0;
    for (const QString &text : texts)
        widest = std::max(widest, widget->fontMetrics().horizontalAdvance(text));
    widget->setMinimumWidth(std::max(widget->minimumSizeHint().width(), widest + 24));
}

} // namespace

TeachPage::TeachPage(TeachingSession *session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_narration(new NarrationView)
    , m_clockTimer(new QTimer(this))
{
    m_stormChart = new StormChart;
    m_diagram = new LifecycleDiagram;
    m_diagram->setObjectName(QStringLiteral("teachDiagram"));
    m_diagram->setMinimumSize(440, 190); // smaller than on its own page: beside the storm
    m_claim = new QLabel;
    m_stormChart->setObjectName(QStringLiteral("stormChart"));
    m_stormChart->hide();
    m_claim->setObjectName(QStringLiteral("scenarioClaim"));
    m_claim->setWordWrap(true);
    m_claim->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_claim->hide();
    // The controls above keep their place whatever is picked, started or told (a click meant for
    // Start once landed in the narration); the stage below gives the diagram, the relay's knobs
    // and the storm's chart the page's width, the narration the rest.
    auto *polling = new QWidget;
    auto *layout = new QVBoxLayout(polling);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(createControls());
    layout->addLayout(createStage(), 3);
    layout->addWidget(m_claim);
    layout->addWidget(m_narration, 2);
    auto *page = new QVBoxLayout(this);
    // The tabs take the place of the page's top and bottom margins: it still fits a laptop.
    const QMargins margins = page->contentsMargins();
    page->setContentsMargins(margins.left(), 0, margins.right(), 0);
    page->addWidget(createPaths(polling));
    connectSession();
    showChoiceSettings();
    m_clockTimer->start(200);
    updateState();
}

// The two ways an outbox is relayed, one pane each: polling (the simulator above) and change
// data capture (its own lesson, CdcLessonView).
QWidget *TeachPage::createPaths(QWidget *polling)
{
    m_paths = new QTabWidget;
    m_paths->setObjectName(QStringLiteral("teachPaths"));
    m_paths->setDocumentMode(true);
    m_paths->addTab(polling, tr("Polling relay"));
    m_paths->setTabToolTip(
        0, tr("A relay claims due rows from the outbox table and delivers them"));
    m_cdc = new CdcLessonView;
    m_paths->addTab(m_cdc, tr("Change data capture"));
    m_paths->setTabToolTip(1,
        tr("A connector (Debezium) reads the outbox's inserts from the WAL through a "
           "replication slot"));
    return m_paths;
}

// The pick, Start, Play, Step, the speed and the storm's policy on one strip, the picked
// scenario's description and the clock under it.
QWidget *TeachPage::createControls()
{
    auto *box = new QGroupBox(tr("Simulator"));
    box->setObjectName(QStringLiteral("teachingControls"));
    createScenarioPicker();
    createStormPolicy();
    createButtons();
    m_stormSettings = new QWidget;
    keepPlaceWhenHidden(m_stormSettings);
    auto *storm = new QGridLayout(m_stormSettings);
    storm->setContentsMargins(0, 0, 0, 0);
    storm->addWidget(new QLabel(tr("Storm policy")), 0, 0);
    storm->addWidget(m_stormPolicy, 0, 1);
    storm->addWidget(m_stormPolicyError, 1, 0, 1, 2);
    auto *row = new QHBoxLayout;
    row->addWidget(m_scenario, 2);
    row->addWidget(m_start);
    row->addWidget(m_play);
    row->addWidget(m_step);
    row->addWidget(new QLabel(tr("Speed")));
    row->addWidget(m_speed);
    row->addWidget(m_stormSettings, 1);
    auto *told = new QHBoxLayout; // what is picked, and where its clock stands
    told->addWidget(m_description, 1);
    told->addWidget(m_clock);
    auto *layout = new QVBoxLayout(box);
    layout->addLayout(row);
    layout->addLayout(told);
    connectControls();
    return box;
}

QLayout *TeachPage::createStage()
{
    m_knobs = new RelayKnobs;
    connect(m_knobs, &RelayKnobs::faultsChanged, this, &TeachPage::applyLiveFaults);
    m_knobs->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Preferred);
    auto *stage = new QHBoxLayout;
    stage->addWidget(m_knobs, 0, Qt::AlignTop);
    stage->addWidget(m_diagram, 2);
    stage->addWidget(m_stormChart, 3);
    return stage;
}

// What the Start button starts: the live relay, a seed scenario or the outage storm.
void TeachPage::createScenarioPicker()
{
    m_scenario = new QComboBox;
    m_scenario->setObjectName(QStringLiteral("scenarioPicker"));
    m_scenario->setAccessibleName(tr("What to run"));
    m_scenario->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_scenario->setMinimumContentsLength(36); // the titles are short sentences
    m_scenario->addItem(tr("Live relay: events flow, with every kind of fault"), QString());
    m_scenario->setItemData(0,
        tr("A producer adds events and two relay workers deliver them, with the fault knobs "
           "below; Step: one claim, call or outcome."),
        Qt::ToolTipRole);
    for (const QString &name : Scenario::names()) {
        const Scenario scenario = *Scenario::byName(name);
        m_scenario->addItem(scenario.title, name);
        m_scenario->setItemData(m_scenario->count() - 1, scenario.summary, Qt::ToolTipRole);
    }
    m_scenario->addItem(tr("Outage storm: retries come back as a herd, jitter spreads them"),
        QString::fromLatin1(TeachingSession::StormName));
    m_scenario->setItemData(m_scenario->count() - 1,
        tr("%1 events fail during an outage, then retry under the storm policy: without jitter "
           "they come back all in the same instant.")
            .arg(OutageStorm::Events),
        Qt::ToolTipRole);
    m_description = new QLabel;
    m_description->setObjectName(QStringLiteral("scenarioDescription"));
    m_description->setWordWrap(true);
    m_description->setTextFormat(Qt::PlainText);
}

// The storm's retry policy, editable, and what is wrong with a typed one.
void TeachPage::createStormPolicy()
{
    m_stormPolicy = new QComboBox;
    m_stormPolicy->setObjectName(QStringLiteral("stormPolicy"));
    m_stormPolicy->setEditable(true);
    m_stormPolicy->addItems(OutageStorm::policies());
    m_stormPolicy->addItem(QStringLiteral("full-jitter:base=100,max=30000"));
    // As wide as a short spec; a longer one scrolls in the field (the strip fits a laptop).
    m_stormPolicy->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_stormPolicy->setMinimumContentsLength(24);
    m_stormPolicy->setToolTip(tr("The outage storm's retry policy; pick another and the storm "
                                 "runs again under it. Any spec the policy parser knows."));
    m_stormPolicyError = new QLabel;
    m_stormPolicyError->setWordWrap(true); // a long reason wraps rather than widens the column
    m_stormPolicyError->setTextFormat(Qt::PlainText); // quotes what was typed
    m_stormPolicyError->setStyleSheet(
        QStringLiteral("color: %1").arg(ThemeColours::errorText().name()));
    m_stormPolicyError->hide();
}

// Start, Play, Step, the speed and the simulation's clock.
void TeachPage::createButtons()
{
    m_start = new QPushButton(tr("Start"));
    m_start->setObjectName(QStringLiteral("startButton"));
    m_start->setToolTip(
        tr("Start the selection from the beginning (a scenario empties the simulation tables)"));
    m_play = new QPushButton(tr("Play"));
    m_play->setObjectName(QStringLiteral("playButton"));
    m_step = new QPushButton(tr("Step"));
    m_step->setObjectName(QStringLiteral("stepButton"));
    m_step->setToolTip(
        tr("Scenario: the next step. Live relay: claim, then deliver, then ack or fail one event"));
    m_speed = new QDoubleSpinBox;
    m_speed->setRange(0.1, 50);
    m_speed->setSingleStep(0.5);
    m_speed->setPrefix(QStringLiteral("× "));
    m_speed->setValue(1.0);
    fitWidestText(m_play, {tr("Play"), tr("Pause")});
    m_clock = new QLabel;
    m_clock->setObjectName(QStringLiteral("simulationClock"));
    // Its text changes with every tick: a fixed width, so that the row never moves.
    m_clock->setFixedWidth(std::max(140,
        m_clock->fontMetrics().horizontalAdvance(
            tr("Wall clock ×%1: %2").arg(u"50.5"_qs, u"00:00:00.000"_qs))
            + 8));
}

void TeachPage::connectControls()
{
    connect(m_scenario, &QComboBox::currentIndexChanged, this, &TeachPage::showChoiceSettings);
    connect(m_start, &QPushButton::clicked, this, &TeachPage::startSelected);
    // Another policy while the storm is shown runs it again under that one.
    connect(m_stormPolicy, &QComboBox::activated, this, [this] {
        if (m_session->mode() == TeachingSession::Mode::Storm)
            startStorm();
    });
    connect(m_play, &QPushButton::clicked, this,
        [this] { m_session->isPlaying() ? m_session->pause() : m_session->play(); });
    connect(m_step, &QPushButton::clicked, m_session, &TeachingSession::step);
    connect(m_speed, &QDoubleSpinBox::valueChanged, m_session, &TeachingSession::setSpeed);
}

void TeachPage::connectSession()
{
    connect(m_session, &TeachingSession::narrated, this, &TeachPage::appendNarration);
    connect(m_session, &TeachingSession::stateChanged, this, &TeachPage::updateState);
    connect(m_session, &TeachingSession::stormChanged, this, &TeachPage::updateStorm);
    connect(m_session, &TeachingSession::claimed, this, &TeachPage::showClaim);
    connect(m_session, &TeachingSession::replayed, this, &TeachPage::clearTold);
    connect(m_session, &TeachingSession::transitioned, this, &TeachPage::showTransition);
    connect(m_session, &TeachingSession::starting, m_diagram,
        [this] { m_diagram->setTransition(LifecycleDiagram::Transition::None); });
    connect(m_session, &TeachingSession::errorOccurred, this,
        [this](const QString &message) { appendNarration({tr("Error: %1").arg(message)}); });
    // A start is checked at once and finished on the session's worker: a failure shows here.
    connect(
        m_session, &TeachingSession::startFinished, this, [this](bool ok, const QString &error) {
            if (!ok)
                appendNarration({tr("Error: %1").arg(error)});
        });
    connect(m_clockTimer, &QTimer::timeout, this, &TeachPage::updateClock);
}

void TeachPage::startSelected()
{
    const QString scenario = m_scenario->currentData().toString();
    if (!scenario.isEmpty() && !confirmStart(scenario))
        return; // nothing changed
    startChosen();
}

bool TeachPage::startByName(const QString &name, const QString &stormPolicy)
{
    if (name == QLatin1String(CdcLesson::Name)) {
        m_paths->setCurrentWidget(m_cdc);
        m_cdc->startStalled();
        return true;
    }
    const int index = m_scenario->findData(name);
    if (name.isEmpty() || index < 0)
        return false;
    m_scenario->setCurrentIndex(index);
    if (!stormPolicy.isEmpty())
        m_stormPolicy->setEditText(stormPolicy);
    startChosen();
    return true;
}

void TeachPage::startChosen()
{
    const QString scenario = m_scenario->currentData().toString();
    QString error;
    clearTold();
    if (scenario == QLatin1String(TeachingSession::StormName)) {
        startStorm();
        return;
    }
    if (!scenario.isEmpty()) {
        if (!m_session->startScenario(scenario, &error)) {
            appendNarration({tr("Error: %1").arg(error)});
            return;
        }
        m_session->play(); // Start starts: its steps run once the worker has prepared it
        return;
    }
    RelayConfig config;
    if (!m_knobs->readConfig(&config))
        return; // the policy's error shows under its field
    if (!m_session->startLiveRelay(config, m_knobs->eventsPerSecond(), &error)) {
        appendNarration({tr("Error: %1").arg(error)});
        return;
    }
    m_session->play();
}

// A start, or a replay from t=0, is told from its first sentence.
void TeachPage::clearTold()
{
    m_narration->clear();
    m_claim->hide();
    m_claim->clear();
    m_diagram->setTransition(LifecycleDiagram::Transition::None);
}

// The relay's knobs matter to the live relay only, the storm's policy to the storm: a short
// dock shows what the learner is about to start.
void TeachPage::showChoiceSettings()
{
    const QString choice = m_scenario->currentData().toString();
    m_knobs->setVisible(choice.isEmpty());
    m_stormSettings->setVisible(choice == QLatin1String(TeachingSession::StormName));
    m_description->setText(m_scenario->currentData(Qt::ToolTipRole).toString());
}

QString TeachPage::descriptionText() const
{
    return m_description->text();
}

void TeachPage::startStorm()
{
    QString error;
    m_stormPolicyError->hide();
    if (!m_session->startStorm(m_stormPolicy->currentText().trimmed(), &error)) {
        m_stormPolicyError->setText(error);
        m_stormPolicyError->show();
        return;
    }
    m_session->play(); // told as soon as the worker has run it
}

// The chart up to the clock; on the diagram, what the newest instant told did: a round that
// failed (a retry scheduled), delivered or parked.
void TeachPage::updateStorm()
{
    using T = LifecycleDiagram::Transition;
    if (!m_session->storm()) {
        m_stormChart->clear();
        return;
    }
    m_stormChart->setStorm(*m_session->storm(), m_session->now());
    T transition = T::None;
    for (const StormInstant &instant : m_session->storm()->attempts) {
        if (instant.at > m_session->now())
            break;
        transition = instant.delivered ? T::Ack : instant.dead ? T::Park : T::Retry;
    }
    m_diagram->setTransition(transition);
}

void TeachPage::showClaim(const QString &claim, bool holds)
{
    m_claim->setText(
        (holds ? tr("Claim shown: %1") : tr("Claim not shown by this run: %1")).arg(claim));
    m_claim->setVisible(!claim.isEmpty());
}

QString TeachPage::claimText() const
{
    return m_claim->isHidden() ? QString() : m_claim->text();
}

void TeachPage::applyLiveFaults()
{
    m_session->setFaults(m_knobs->faults(m_session->relayConfig().faults));
}

void TeachPage::updateState()
{
    const bool active = m_session->mode() != TeachingSession::Mode::Idle;
    m_play->setEnabled(active);
    m_step->setEnabled(active);
    m_play->setText(m_session->isPlaying() ? tr("Pause") : tr("Play"));
    m_stormChart->setVisible(m_session->mode() == TeachingSession::Mode::Storm);
    const int index = m_scenario->findData(m_session->scenarioName());
    if (active && index >= 0)
        m_scenario->setCurrentIndex(index);
    updateClock();
}

void TeachPage::updateClock()
{
    switch (m_session->mode()) {
    case TeachingSession::Mode::Idle:
        m_clock->setText(tr("Clock: stopped"));
        break;
    case TeachingSession::Mode::Scenario:
    case TeachingSession::Mode::Storm:
        m_clock->setText(tr("Logical clock: t=%1").arg(m_session->now()));
        break;
    case TeachingSession::Mode::LiveRelay:
        m_clock->setText(tr("Wall clock ×%1: %2")
                             .arg(m_session->speed())
                             .arg(TimeFormat::time(m_session->now()).mid(11)));
        break;
    }
}

void TeachPage::appendNarration(const QStringList &lines)
{
    m_narration->append(lines);
}

void TeachPage::follow(HealthMonitor *monitor)
{
    // Bursts of relay activity arrive coalesced (TeachingSession), and become one refresh.
    connect(m_session, &TeachingSession::databaseChanged, monitor, &HealthMonitor::refreshNow);
    monitor->setToldCounts([page = QPointer<TeachPage>(this)] {
        return page ? page->toldCounts() : std::nullopt;
    });
}

// The storm ran to its end on the worker before it is told: until the clock reaches an instant,
// its events stand where the narration has left them.
std::optional<HealthCounts> TeachPage::toldCounts() const
{
    if (m_session->mode() != TeachingSession::Mode::Storm || !m_session->storm())
        return std::nullopt;
    const StormCounts told = m_session->storm()->countsAt(m_session->now());
    HealthCounts counts;
    counts.due = told.due;
    counts.scheduled = told.scheduled;
    counts.delivered = told.delivered;
    counts.dead = told.dead;
    return counts;
}

void TeachPage::startDemo()
{
    QString error;
    if (m_session->startLiveRelay(
            TeachingSession::demoRelayConfig(), TeachingSession::DemoEventsPerSecond, &error))
        m_session->play();
    else
        appendNarration({tr("Error: %1").arg(error)});
}

// What the step just told did, on the diagram: its arrow, or the IN FLIGHT box for a call.
void TeachPage::showTransition(const TraceEvent &event)
{
    using T = LifecycleDiagram::Transition;
    const QString kind = event.kind();
    const bool ok = event.value(QStringLiteral("ok")).toBool();
    T transition = T::None;
    if (kind == QLatin1String("claim") && ok)
        transition = event.value(QStringLiteral("took_over_expired_lease")).toBool() ? T::Reclaim
                                                                                     : T::Claim;
    else if (kind == QLatin1String("deliver"))
        transition = T::Call;
    else if (kind == QLatin1String("ack") && ok)
        transition = T::Ack;
    else if (kind == QLatin1String("fail") && ok)
        transition = event.value(QStringLiteral("status")).toString() == QLatin1String("DEAD")
            ? T::Park
            : T::Retry;
    else if (kind == QLatin1String("park"))
        transition = T::Park;
    else if (kind == QLatin1String("edit") && ok)
        transition = T::Replay;
    m_diagram->setTransition(transition);
}

QWidget *TeachPage::focusTarget() const
{
    return m_scenario;
}

void TeachPage::outboxChanged(const HealthSnapshot &snapshot, bool)
{
    setRowCount(snapshot.counts.pending() + snapshot.counts.delivered + snapshot.counts.dead,
        snapshot.isEstimated(QStringLiteral("delivered")));
    m_diagram->showSnapshot(snapshot);
}

void TeachPage::setRowCount(qint64 rows, bool estimated)
{
    m_rows = rows;
    m_rowsEstimated = estimated;
}

// A scenario starts from empty tables: on a database holding more than a few rows it says
// how many it deletes, and Cancel (the default) changes nothing.
bool TeachPage::confirmStart(const QString &scenario)
{
    if (m_rows && *m_rows <= ConfirmAboveRows)
        return true;
    const QString count = !m_rows ? tr("every event (how many is not known yet)")
        : m_rowsEstimated         ? tr("about %1 events").arg(QLocale().toString(*m_rows))
                                  : tr("%1 events").arg(QLocale().toString(*m_rows));
    QMessageBox box(QMessageBox::Warning, tr("Delete the outbox's rows?"),
        tr("Starting the scenario %1 deletes %2 from this simulation database, with their "
           "attempts and replay log, before it begins.")
            .arg(scenario, count),
        QMessageBox::Cancel, this);
    box.setObjectName(QStringLiteral("startGuard"));
    QPushButton *erase = box.addButton(tr("Delete and start"), QMessageBox::DestructiveRole);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == erase;
}

QString TeachPage::narrationText() const
{
    return m_narration->text();
}
