#include "teachingpanel.h"

#include "healthmonitor.h"
#include "outagestorm.h"
#include "scenario.h"
#include "stormchart.h"
#include "teachingsession.h"
#include "themecolours.h"
#include "timeformat.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
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

QDoubleSpinBox *percentBox(double value)
{
    auto *box = new QDoubleSpinBox;
    box->setRange(0, 100);
    box->setDecimals(0);
    box->setSuffix(QStringLiteral(" %"));
    box->setValue(value * 100.0);
    return box;
}

} // namespace

TeachingPanel::TeachingPanel(TeachingSession *session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_narration(new QPlainTextEdit)
    , m_clockTimer(new QTimer(this))
{
    m_stormChart = new StormChart;
    m_claim = new QLabel;
    m_narration->setObjectName(QStringLiteral("narration"));
    m_narration->setAccessibleName(tr("Narration"));
    m_narration->setReadOnly(true);
    m_narration->setMaximumBlockCount(NarrationLines);
    m_narration->setPlaceholderText(tr("Each lifecycle step is told here in plain words."));
    m_narration->setToolTip(tr("The narration holds still while the pointer is over it."));
    m_narration->viewport()->installEventFilter(this);
    m_heldNote = new QLabel;
    m_heldNote->setObjectName(QStringLiteral("narrationHeld"));
    m_heldNote->hide();
    m_stormChart->setObjectName(QStringLiteral("stormChart"));
    m_stormChart->hide();
    m_claim->setObjectName(QStringLiteral("scenarioClaim"));
    m_claim->setWordWrap(true);
    m_claim->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_claim->hide();
    auto *layout = new QHBoxLayout(this);
    // The controls keep their place whatever is picked, started or told: the column is as wide
    // as its widest content (the relay's knobs), whether they show or not, and never follows the
    // chart or the narration beside it (a click meant for Start once landed in the narration).
    auto *controls = new QWidget;
    controls->setObjectName(QStringLiteral("teachingControls"));
    controls->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Preferred);
    auto *left = new QVBoxLayout(controls);
    left->setContentsMargins(0, 0, 0, 0);
    left->addWidget(createControls());
    m_knobs = createKnobs();
    keepPlaceWhenHidden(m_knobs);
    left->addWidget(m_knobs);
    left->addStretch(1);
    layout->addWidget(controls);
    layout->addWidget(m_stormChart, 3);
    auto *right = new QVBoxLayout;
    right->addWidget(m_claim);
    right->addWidget(m_narration, 1);
    right->addWidget(m_heldNote);
    layout->addLayout(right, 2);
    connectSession();
    showChoiceSettings();
    m_clockTimer->start(200);
    updateState();
}

QWidget *TeachingPanel::createControls()
{
    auto *box = new QGroupBox(tr("Simulator"));
    createScenarioPicker();
    createStormPolicy();
    createButtons();
    auto *row = new QHBoxLayout;
    row->addWidget(m_play);
    row->addWidget(m_step);
    row->addWidget(new QLabel(tr("Speed")));
    row->addWidget(m_speed);
    auto *layout = new QVBoxLayout(box);
    auto *pick = new QHBoxLayout;
    pick->addWidget(m_scenario, 1);
    pick->addWidget(m_start);
    layout->addLayout(pick);
    layout->addLayout(row);
    m_stormSettings = new QWidget;
    keepPlaceWhenHidden(m_stormSettings);
    auto *storm = new QGridLayout(m_stormSettings);
    storm->setContentsMargins(0, 0, 0, 0);
    storm->addWidget(new QLabel(tr("Policy")), 0, 0);
    storm->addWidget(m_stormPolicy, 0, 1);
    storm->addWidget(m_stormPolicyError, 1, 1);
    storm->setColumnStretch(1, 1);
    // The clock and the storm's policy share a row: the dock is short on a laptop.
    auto *clockRow = new QHBoxLayout;
    clockRow->addWidget(m_clock);
    clockRow->addWidget(m_stormSettings, 1);
    layout->addLayout(clockRow);
    connectControls();
    return box;
}

// What the Start button starts: the live relay, a seed scenario or the outage storm.
void TeachingPanel::createScenarioPicker()
{
    m_scenario = new QComboBox;
    m_scenario->setObjectName(QStringLiteral("scenarioPicker"));
    m_scenario->addItem(tr("Live relay (all faults)"), QString());
    for (const QString &name : Scenario::names()) {
        m_scenario->addItem(tr("Scenario: %1").arg(name), name);
        m_scenario->setItemData(
            m_scenario->count() - 1, Scenario::byName(name)->summary, Qt::ToolTipRole);
    }
    m_scenario->addItem(
        tr("Outage storm: herd or jitter"), QString::fromLatin1(TeachingSession::StormName));
    m_scenario->setItemData(m_scenario->count() - 1,
        tr("%1 events fail during an outage, then retry under the storm policy: without jitter "
           "they come back all in the same instant.")
            .arg(OutageStorm::Events),
        Qt::ToolTipRole);
}

// The storm's retry policy, editable, and what is wrong with a typed one.
void TeachingPanel::createStormPolicy()
{
    m_stormPolicy = new QComboBox;
    m_stormPolicy->setObjectName(QStringLiteral("stormPolicy"));
    m_stormPolicy->setEditable(true);
    m_stormPolicy->addItems(OutageStorm::policies());
    m_stormPolicy->addItem(QStringLiteral("full-jitter:base=100,max=30000"));
    m_stormPolicy->setSizeAdjustPolicy(QComboBox::AdjustToContents);
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
void TeachingPanel::createButtons()
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

void TeachingPanel::connectControls()
{
    connect(m_scenario, &QComboBox::currentIndexChanged, this, &TeachingPanel::showChoiceSettings);
    connect(m_start, &QPushButton::clicked, this, &TeachingPanel::startSelected);
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

QWidget *TeachingPanel::createKnobs()
{
    const RelayConfig demo = TeachingSession::demoRelayConfig();
    auto *box = new QGroupBox(tr("Live relay: fault knobs and policy"));
    m_transient = percentBox(demo.faults.transientRate);
    m_permanent = percentBox(demo.faults.permanentRate);
    m_lostAck = percentBox(demo.faults.lostAckRate);
    m_stall = percentBox(demo.stallRate);
    m_policy = new QLineEdit(demo.policy.spec());
    m_policy->setObjectName(QStringLiteral("policyField"));
    // The whole spec fits (the default width cut it to "ultiplier=2,max=30000").
    m_policy->setMinimumWidth(m_policy->fontMetrics().horizontalAdvance(m_policy->text() + u"  "_qs)
        + m_policy->textMargins().left() + m_policy->textMargins().right() + 16);
    m_policy->setToolTip(
        tr("seed, capped:D1,..,Dn, fixed:D, exponential:initial=..,multiplier=..,max=.., "
           "exponential-random:..., full-jitter:base=..,max=.."));
    m_policyError = new QLabel;
    m_policyError->setTextFormat(Qt::PlainText); // quotes what was typed
    m_policyError->setStyleSheet(QStringLiteral("color: %1").arg(ThemeColours::errorText().name()));
    m_budget = new QSpinBox;
    m_budget->setRange(1, 100);
    m_budget->setValue(demo.budget.maxAttempts);
    m_workers = new QSpinBox;
    m_workers->setRange(1, 16);
    m_workers->setValue(demo.workers);
    m_rate = new QDoubleSpinBox;
    m_rate->setRange(0.1, 1000);
    m_rate->setSuffix(tr(" events/s"));
    m_rate->setValue(TeachingSession::DemoEventsPerSecond);

    auto *form = new QFormLayout(box);
    form->addRow(tr("Transient failures"), m_transient);
    form->addRow(tr("Poison (permanent)"), m_permanent);
    form->addRow(tr("Lost acknowledgements"), m_lostAck);
    form->addRow(tr("Worker stalls past lease"), m_stall);
    form->addRow(tr("Retry policy"), m_policy);
    form->addRow(QString(), m_policyError);
    form->addRow(tr("Attempt budget"), m_budget);
    form->addRow(tr("Workers"), m_workers);
    form->addRow(tr("Producer"), m_rate);
    for (QDoubleSpinBox *rate : {m_transient, m_permanent, m_lostAck})
        connect(rate, &QDoubleSpinBox::valueChanged, this, &TeachingPanel::applyLiveFaults);
    return box;
}

void TeachingPanel::connectSession()
{
    connect(m_session, &TeachingSession::narrated, this, &TeachingPanel::appendNarration);
    connect(m_session, &TeachingSession::stateChanged, this, &TeachingPanel::updateState);
    connect(m_session, &TeachingSession::stormChanged, this, &TeachingPanel::updateStorm);
    connect(m_session, &TeachingSession::claimed, this, &TeachingPanel::showClaim);
    connect(m_session, &TeachingSession::replayed, this, &TeachingPanel::clearTold);
    connect(m_session, &TeachingSession::errorOccurred, this,
        [this](const QString &message) { appendNarration({tr("Error: %1").arg(message)}); });
    // A start is checked at once and finished on the session's worker: a failure shows here.
    connect(
        m_session, &TeachingSession::startFinished, this, [this](bool ok, const QString &error) {
            if (!ok)
                appendNarration({tr("Error: %1").arg(error)});
        });
    connect(m_clockTimer, &QTimer::timeout, this, &TeachingPanel::updateClock);
}

void TeachingPanel::startSelected()
{
    const QString scenario = m_scenario->currentData().toString();
    if (!scenario.isEmpty() && !confirmStart(scenario))
        return; // nothing changed
    startChosen();
}

bool TeachingPanel::startByName(const QString &name, const QString &stormPolicy)
{
    const int index = m_scenario->findData(name);
    if (name.isEmpty() || index < 0)
        return false;
    m_scenario->setCurrentIndex(index);
    if (!stormPolicy.isEmpty())
        m_stormPolicy->setEditText(stormPolicy);
    startChosen();
    return true;
}

void TeachingPanel::startChosen()
{
    const QString scenario = m_scenario->currentData().toString();
    QString error;
    m_policyError->clear();
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
    RelayConfig config = TeachingSession::demoRelayConfig();
    if (!RetryPolicy::parse(m_policy->text(), &config.policy, &error)) {
        m_policyError->setText(error);
        return;
    }
    config.budget.maxAttempts = m_budget->value();
    config.workers = m_workers->value();
    config.stallRate = m_stall->value() / 100.0;
    config.faults.transientRate = m_transient->value() / 100.0;
    config.faults.permanentRate = m_permanent->value() / 100.0;
    config.faults.lostAckRate = m_lostAck->value() / 100.0;
    if (!m_session->startLiveRelay(config, m_rate->value(), &error)) {
        appendNarration({tr("Error: %1").arg(error)});
        return;
    }
    m_session->play();
}

// A start, or a replay from t=0, is told from its first sentence.
void TeachingPanel::clearTold()
{
    m_narration->clear();
    m_held.clear();
    m_heldArrived = 0;
    m_heldNote->setText(tr("Narration held while the pointer is over it"));
    m_claim->hide();
    m_claim->clear();
}

// The relay's knobs matter to the live relay only, the storm's policy to the storm: a short
// dock shows what the learner is about to start.
void TeachingPanel::showChoiceSettings()
{
    const QString choice = m_scenario->currentData().toString();
    m_knobs->setVisible(choice.isEmpty());
    m_stormSettings->setVisible(choice == QLatin1String(TeachingSession::StormName));
}

void TeachingPanel::startStorm()
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

void TeachingPanel::updateStorm()
{
    if (m_session->storm())
        m_stormChart->setStorm(*m_session->storm(), m_session->now());
    else
        m_stormChart->clear();
}

void TeachingPanel::showClaim(const QString &claim, bool holds)
{
    m_claim->setText(
        (holds ? tr("Claim shown: %1") : tr("Claim not shown by this run: %1")).arg(claim));
    m_claim->setVisible(!claim.isEmpty());
}

QString TeachingPanel::claimText() const
{
    return m_claim->isHidden() ? QString() : m_claim->text();
}

void TeachingPanel::applyLiveFaults()
{
    FaultProfile faults = m_session->relayConfig().faults;
    faults.transientRate = m_transient->value() / 100.0;
    faults.permanentRate = m_permanent->value() / 100.0;
    faults.lostAckRate = m_lostAck->value() / 100.0;
    m_session->setFaults(faults);
}

void TeachingPanel::updateState()
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

void TeachingPanel::updateClock()
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

void TeachingPanel::appendNarration(const QStringList &lines)
{
    if (m_narrationHeld) {
        m_held << lines;
        if (m_held.size() > NarrationLines)
            m_held.remove(0, m_held.size() - NarrationLines);
        m_heldArrived += int(lines.size());
        m_heldNote->setText(tr("Narration held while the pointer is over it: %n new line(s)",
            nullptr, m_heldArrived));
        return;
    }
    for (const QString &line : lines)
        m_narration->appendPlainText(line);
}

void TeachingPanel::setNarrationHeld(bool held)
{
    if (held == m_narrationHeld)
        return;
    m_narrationHeld = held;
    m_heldNote->setText(tr("Narration held while the pointer is over it"));
    m_heldNote->setVisible(held);
    if (!held) {
        m_heldArrived = 0;
        appendNarration(std::exchange(m_held, {}));
    }
}

bool TeachingPanel::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_narration->viewport()) {
        if (event->type() == QEvent::Enter)
            setNarrationHeld(true);
        else if (event->type() == QEvent::Leave)
            setNarrationHeld(false);
    }
    return QWidget::eventFilter(watched, event);
}

void TeachingPanel::watch(HealthMonitor *monitor)
{
    connect(monitor, &HealthMonitor::snapshotChanged, this, [this](const HealthSnapshot &s) {
        setRowCount(s.counts.pending() + s.counts.delivered + s.counts.dead,
            s.isEstimated(QStringLiteral("delivered")));
    });
}

void TeachingPanel::setRowCount(qint64 rows, bool estimated)
{
    m_rows = rows;
    m_rowsEstimated = estimated;
}

// A scenario starts from empty tables: on a database holding more than a few rows it says
// how many it deletes, and Cancel (the default) changes nothing.
bool TeachingPanel::confirmStart(const QString &scenario)
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

QString TeachingPanel::narrationText() const
{
    return m_narration->toPlainText();
}
