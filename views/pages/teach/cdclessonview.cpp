#include "cdclessonview.h"

#include "cdclesson.h"
#include "cdcpathdiagram.h"
#include "cdcslotpanel.h"
#include "narrationview.h"

#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace {

// Each step of the path: what it is, where it breaks, what an operator looks at.
QString explanation(CdcPathDiagram::Step step)
{
    switch (step) {
    case CdcPathDiagram::Service:
        return CdcLessonView::tr(
            "<b>1. Service transaction.</b> The service inserts the event into its outbox "
            "table in the transaction of the change it records, and often deletes the row "
            "in that same transaction. <b>Breaks:</b> seldom here, but the table stays "
            "empty or only grows: its rows' ages and states say nothing about delivery. "
            "<b>Look at:</b> the slot, not the table.");
    case CdcPathDiagram::Wal:
        return CdcLessonView::tr(
            "<b>2. WAL.</b> PostgreSQL writes every committed change to the write-ahead "
            "log (wal_level = logical); its position (pg_current_wal_lsn) only grows. "
            "<b>Breaks:</b> WAL stays on disk while any slot needs it; a full pg_wal disk "
            "stops the database. <b>Look at:</b> the WAL rate and the free space of "
            "pg_wal.");
    case CdcPathDiagram::Slot:
        return CdcLessonView::tr(
            "<b>3. Replication slot.</b> It remembers what the connector confirmed "
            "(confirmed_flush_lsn) and keeps all the database's WAL from restart_lsn on. "
            "<b>Breaks:</b> with no connector reading it retains WAL without end; past "
            "max_slot_wal_keep_size a checkpoint removes it and the slot is lost. "
            "<b>Look at:</b> pg_replication_slots: active, lag, retained WAL, wal_status, "
            "safe_wal_size.");
    case CdcPathDiagram::Connector:
        return CdcLessonView::tr(
            "<b>4. Connector (Debezium).</b> It streams the slot's changes (pgoutput), "
            "turns each outbox insert into a message and confirms the position once the "
            "broker has it. <b>Breaks:</b> a failed task, a rebalance that never ends, a "
            "broker it cannot reach: it stops confirming. <b>Look at:</b> whether the slot "
            "is active and since when it is not; the connector's task status.");
    case CdcPathDiagram::Broker:
    case CdcPathDiagram::StepCount:
        break;
    }
    return CdcLessonView::tr(
        "<b>5. Broker.</b> Kafka (or another broker) holds the events for the consumers. "
        "<b>Breaks:</b> unreachable, it stops the connector's confirmations and the WAL "
        "piles up behind them. <b>Look at:</b> the events published against those "
        "written; a lost slot's events never arrive.");
}

} // namespace

CdcLessonView::CdcLessonView(QWidget *parent)
    : QWidget(parent)
    , m_lesson(new CdcLesson(this))
    , m_diagram(new CdcPathDiagram)
    , m_panel(new CdcSlotPanel)
    , m_explanation(new QLabel)
    , m_narration(new NarrationView)
{
    setObjectName(QStringLiteral("cdcLesson"));
    // Named apart from the polling pane's narration ("narration", "narrationHeld"…).
    for (QWidget *part : m_narration->findChildren<QWidget *>()) {
        if (part->objectName().startsWith(u"narration"))
            part->setObjectName(QStringLiteral("cdcN") + part->objectName().mid(1));
    }
    m_explanation->setObjectName(QStringLiteral("cdcExplanation"));
    m_explanation->setWordWrap(true);
    m_explanation->setTextFormat(Qt::RichText);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(createControls());
    layout->addWidget(createStage(), 2); // up to the path's tallest; the narration the rest
    layout->addWidget(m_explanation);
    layout->addWidget(m_narration, 1);
    connectLesson();
    explain();
    updateState();
}

QWidget *CdcLessonView::createControls()
{
    auto *box = new QGroupBox(tr("Change data capture simulator"));
    m_start = new QPushButton(tr("Start"));
    m_start->setObjectName(QStringLiteral("cdcStartButton"));
    m_start->setToolTip(tr("Start the lesson again from t=0 with a running connector"));
    m_play = new QPushButton(tr("Pause"));
    m_play->setObjectName(QStringLiteral("cdcPlayButton"));
    m_step = new QPushButton(tr("Step"));
    m_step->setObjectName(QStringLiteral("cdcStepButton"));
    m_step->setToolTip(tr("One simulated second: the service's inserts, then the connector"));
    m_connector = new QPushButton(tr("Resume connector"));
    m_connector->setObjectName(QStringLiteral("cdcConnectorButton"));
    m_connector->setMinimumWidth(m_connector->sizeHint().width() + 16); // its longest text
    m_speed = new QDoubleSpinBox;
    m_speed->setObjectName(QStringLiteral("cdcSpeed"));
    m_speed->setRange(0.1, 50);
    m_speed->setSingleStep(0.5);
    m_speed->setPrefix(QStringLiteral("× "));
    m_speed->setValue(1.0);
    m_clock = new QLabel;
    m_clock->setObjectName(QStringLiteral("cdcClock"));
    auto *row = new QHBoxLayout(box);
    for (QWidget *widget : {static_cast<QWidget *>(m_start), static_cast<QWidget *>(m_play),
             static_cast<QWidget *>(m_step)})
        row->addWidget(widget);
    row->addWidget(new QLabel(tr("Speed")));
    row->addWidget(m_speed);
    row->addSpacing(12);
    row->addWidget(m_connector);
    row->addStretch(1);
    row->addWidget(m_clock);
    return box;
}

// The path beside what an operator reads from the slot.
QWidget *CdcLessonView::createStage()
{
    auto *stage = new QWidget;
    auto *row = new QHBoxLayout(stage);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_diagram, 1);
    m_panel->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Preferred);
    row->addWidget(m_panel, 0, Qt::AlignTop);
    stage->setMaximumHeight(m_diagram->maximumHeight()); // the narration gets the rest
    return stage;
}

void CdcLessonView::connectLesson()
{
    connect(m_start, &QPushButton::clicked, this, [this] {
        m_narration->clear();
        m_lesson->start();
        m_lesson->play();
    });
    connect(m_play, &QPushButton::clicked, this,
        [this] { m_lesson->isPlaying() ? m_lesson->pause() : m_lesson->play(); });
    connect(m_step, &QPushButton::clicked, this, [this] {
        m_lesson->pause();
        m_lesson->step();
    });
    connect(m_speed, &QDoubleSpinBox::valueChanged, m_lesson, &CdcLesson::setSpeed);
    connect(m_connector, &QPushButton::clicked, this, &CdcLessonView::onConnectorClicked);
    connect(m_lesson, &CdcLesson::narrated, m_narration, &NarrationView::append);
    connect(m_lesson, &CdcLesson::changed, this, &CdcLessonView::updateState);
    connect(m_diagram, &CdcPathDiagram::selectedChanged, this, &CdcLessonView::explain);
}

// One button, the learner's hand on the connector: stall it, resume it, or once the slot is
// lost, drop the slot and let the connector make a new one.
void CdcLessonView::onConnectorClicked()
{
    const SimulatedCdcRelay &relay = m_lesson->relay();
    if (relay.isLost())
        m_lesson->recreateSlot();
    else if (relay.connectorRunning())
        m_lesson->stallConnector();
    else
        m_lesson->resumeConnector();
}

void CdcLessonView::updateState()
{
    const SimulatedCdcRelay &relay = m_lesson->relay();
    const bool started = m_lesson->isStarted();
    m_play->setEnabled(started);
    m_step->setEnabled(started);
    m_connector->setEnabled(started);
    m_play->setText(m_lesson->isPlaying() ? tr("Pause") : tr("Play"));
    m_connector->setText(relay.isLost() ? tr("Recreate slot")
            : relay.connectorRunning()  ? tr("Stall connector")
                                        : tr("Resume connector"));
    m_clock->setText(
        started ? tr("Simulated clock: t=%1 s").arg(m_lesson->now() / 1000) : tr("Clock: stopped"));
    m_diagram->setRelay(relay, m_lesson->now());
    m_panel->setRelay(relay, m_lesson->now());
}

void CdcLessonView::explain()
{
    m_explanation->setText(explanation(m_diagram->selected())
        + tr(" <i>(Click a step of the path to read about it.)</i>"));
}

QString CdcLessonView::explanationText() const
{
    return m_explanation->text();
}

QString CdcLessonView::narrationText() const
{
    return m_narration->text();
}

void CdcLessonView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (!m_lesson->isStarted()) {
        m_lesson->start();
        m_lesson->play();
    }
}

void CdcLessonView::startStalled()
{
    m_narration->clear();
    m_lesson->start();
    for (int second = 0; second < 5; ++second) // a few seconds of a healthy slot first
        m_lesson->step();
    m_lesson->stallConnector();
    m_lesson->play();
}
