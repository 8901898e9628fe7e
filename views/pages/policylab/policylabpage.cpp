#include "policylabpage.h"

#include "policylab.h"
#include "policylabcolours.h"
#include "policylabschedulechart.h"
#include "policylabstormchart.h"
#include "policyschedulemodel.h"
#include "themecolours.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QSpinBox>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace {

const QString None = QStringLiteral("(none)");

QLabel *wrappedLabel(const QString &objectName)
{
    auto *label = new QLabel;
    label->setObjectName(objectName);
    label->setTextFormat(Qt::PlainText); // a typed spec is quoted back
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QComboBox *policyCombo(const QString &objectName, bool optional, const QString &current)
{
    auto *box = new QComboBox;
    box->setObjectName(objectName);
    box->setEditable(true);
    box->setInsertPolicy(QComboBox::NoInsert);
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(12);
    if (optional)
        box->addItem(None);
    box->addItems(PolicyLabPage::knownPolicies());
    box->setCurrentText(current);
    box->setToolTip(QObject::tr("A retry policy: pick one or type a spec such as capped:10,20,40, "
                                "fixed:80, exponential:initial=100,multiplier=2,max=30000, "
                                "exponential-random:… or full-jitter:base=100,max=30000"));
    return box;
}

QSpinBox *spinBox(const QString &objectName, int low, int high, int value, const QString &suffix)
{
    auto *box = new QSpinBox;
    box->setObjectName(objectName);
    box->setRange(low, high);
    box->setValue(value);
    box->setSuffix(suffix);
    box->setGroupSeparatorShown(true);
    return box;
}

QString seconds(qint64 ms)
{
    return PolicySchedule::humanMs(ms);
}

} // namespace

PolicyLabPage::PolicyLabPage(QWidget *parent)
    : QWidget(parent)
    , m_lab(new PolicyLab(this))
    , m_settle(new QTimer(this))
    , m_model(new PolicyScheduleModel(this))
{
    setObjectName(QStringLiteral("policyLabPanel"));
    m_settle->setSingleShot(true);
    m_settle->setInterval(SettleMs);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(setupInputs());
    m_body = new QBoxLayout(QBoxLayout::TopToBottom);
    m_body->addWidget(setupSchedule(), 10);
    m_scheduleChart = new PolicyLabScheduleChart;
    m_scheduleChart->setMinimumHeight(ChartHeight);
    m_body->addWidget(m_scheduleChart, 6);
    m_body->addWidget(setupStorm(), 10);
    layout->addLayout(m_body, 1);
    connectInputs();
    connectLab();
    showSimulating(false);
}

PolicyLabPage::~PolicyLabPage() = default;

QStringList PolicyLabPage::knownPolicies()
{
    return {QStringLiteral("exponential"), QStringLiteral("exponential-random"),
        QStringLiteral("full-jitter:base=100,max=30000"), QStringLiteral("seed"),
        QStringLiteral("capped:10,20,40"), QStringLiteral("fixed:80"),
        QStringLiteral("exponential:initial=1000,multiplier=2,max=60000"),
        QStringLiteral("exponential-random:initial=1000,multiplier=2,max=60000")};
}

// Two rows: the policies and the budget; the outage, and whether a simulation runs.
QWidget *PolicyLabPage::setupInputs()
{
    auto *box = new QWidget;
    auto *grid = new QGridLayout(box);
    grid->setContentsMargins(0, 0, 0, 0);
    m_policyA = policyCombo(QStringLiteral("policyA"), false, QStringLiteral("exponential"));
    m_policyB = policyCombo(QStringLiteral("policyB"), true, QStringLiteral("exponential-random"));
    m_budget = spinBox(QStringLiteral("policyBudget"), 1, PolicyLabInput::MaxBudget, 20, QString());
    m_budget->setToolTip(tr("Attempts before an event is parked DEAD"));
    m_policyA->setAccessibleName(tr("Policy A"));
    m_policyB->setAccessibleName(tr("Policy B"));
    m_budget->setAccessibleName(tr("Budget"));
    grid->addWidget(new QLabel(tr("Policy A")), 0, 0);
    grid->addWidget(m_policyA, 0, 1);
    grid->addWidget(new QLabel(tr("B")), 0, 2);
    grid->addWidget(m_policyB, 0, 3);
    grid->addWidget(new QLabel(tr("Budget")), 0, 4);
    grid->addWidget(m_budget, 0, 5);
    grid->addLayout(setupOutageRow(), 1, 0, 1, 6);
    m_error = wrappedLabel(QStringLiteral("policyLabError"));
    m_error->setStyleSheet(QStringLiteral("color: %1;").arg(ThemeColours::errorText().name()));
    m_error->hide();
    grid->addWidget(m_error, 2, 0, 1, 6);
    grid->setColumnStretch(1, 1);
    grid->setColumnStretch(3, 1);
    return box;
}

QLayout *PolicyLabPage::setupOutageRow()
{
    m_events
        = spinBox(QStringLiteral("stormEvents"), 1, PolicyLabInput::MaxEvents, 1000, QString());
    m_outage
        = spinBox(QStringLiteral("stormOutage"), 1, PolicyLabInput::MaxOutageSeconds, 60, tr(" s"));
    m_events->setAccessibleName(tr("Events that fail during the outage"));
    m_outage->setAccessibleName(tr("Outage length"));
    m_busy = new QProgressBar;
    m_busy->setObjectName(QStringLiteral("policyLabBusy"));
    m_busy->setRange(0, 0); // no end known: it moves while the simulation runs
    m_busy->setMaximumWidth(100);
    QSizePolicy policy = m_busy->sizePolicy();
    policy.setRetainSizeWhenHidden(true); // the row keeps its place when the work ends
    m_busy->setSizePolicy(policy);
    m_status = wrappedLabel(QStringLiteral("policyLabStatus"));
    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("What if")));
    row->addWidget(m_events);
    row->addWidget(new QLabel(tr("events fail during an outage of")));
    row->addWidget(m_outage);
    row->addWidget(new QLabel(tr("then the transport recovers?")));
    row->addSpacing(12);
    row->addWidget(m_busy);
    row->addWidget(m_status, 1);
    return row;
}

QWidget *PolicyLabPage::setupSchedule()
{
    auto *box = new QWidget;
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *title = new QLabel(tr("Schedule when every attempt fails"));
    title->setStyleSheet(QStringLiteral("font-weight: 600;"));
    title->setAlignment(Qt::AlignHCenter);
    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("policyScheduleView"));
    m_table->setModel(m_model);
    m_table->setTabKeyNavigation(false); // Tab leaves the table; arrows move in it
    m_table->setAccessibleName(tr("Retry schedules compared"));
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 4);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setMinimumHeight(6 * (m_table->fontMetrics().height() + 4));
    m_dead = wrappedLabel(QStringLiteral("policyDead"));
    layout->addWidget(title);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_dead);
    return box;
}

QWidget *PolicyLabPage::setupStorm()
{
    auto *box = new QWidget;
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    m_stormChart = new PolicyLabStormChart;
    m_stormChart->setMinimumHeight(ChartHeight);
    m_peak = wrappedLabel(QStringLiteral("stormPeak"));
    layout->addWidget(m_stormChart, 1);
    layout->addWidget(m_peak);
    return box;
}

void PolicyLabPage::connectInputs()
{
    const auto settle = [this] { m_settle->start(); };
    for (QComboBox *box : {m_policyA, m_policyB})
        connect(box, &QComboBox::currentTextChanged, this, settle);
    for (QSpinBox *box : {m_budget, m_events, m_outage})
        connect(box, &QSpinBox::valueChanged, this, settle);
    connect(m_settle, &QTimer::timeout, this, &PolicyLabPage::compute);
}

void PolicyLabPage::connectLab()
{
    connect(m_lab, &PolicyLab::schedulesReady, this, &PolicyLabPage::showSchedules);
    connect(m_lab, &PolicyLab::stormsReady, this, &PolicyLabPage::showRuns);
    connect(m_lab, &PolicyLab::simulatingChanged, this, &PolicyLabPage::showSimulating);
    connect(m_lab, &PolicyLab::stormsFailed, this, [this](const QString &error) {
        m_status->setText(tr("The simulation failed: %1").arg(error));
        emit simulated();
    });
}

bool PolicyLabPage::readInput(PolicyLabInput *input, QString *error) const
{
    input->policies.clear();
    for (QComboBox *box : {m_policyA, m_policyB}) {
        if (box == m_policyB && box->currentText().trimmed() == None)
            continue;
        RetryPolicy policy;
        if (!RetryPolicy::parse(box->currentText(), &policy, error))
            return false;
        input->policies << policy;
    }
    input->budget = m_budget->value();
    input->events = m_events->value();
    input->outageSeconds = m_outage->value();
    return true;
}

void PolicyLabPage::compute()
{
    m_settle->stop();
    m_started = true;
    PolicyLabInput input;
    QString error;
    if (!readInput(&input, &error)) {
        m_error->setText(error);
        m_error->show();
        return;
    }
    m_error->hide();
    m_error->clear();
    m_lab->request(input);
}

void PolicyLabPage::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    m_body->setDirection(width() >= WideWidth ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom);
}

void PolicyLabPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (!m_started)
        compute();
}

void PolicyLabPage::showSchedules(const QList<PolicySchedule> &schedules)
{
    m_model->setSchedules(schedules);
    m_scheduleChart->setSchedules(schedules);
    QStringList parked;
    for (qsizetype i = 0; i < schedules.size(); ++i)
        parked << PolicyLabColours::label(int(i), int(schedules.size()))
                + PolicySchedule::spreadText(schedules.at(i).deadAfter());
    m_dead->setText(tr("Parked DEAD (the red dots) after the budget's last failure, counted from "
                       "the first attempt: %1.")
                        .arg(parked.join(QStringLiteral("; "))));
}

QString PolicyLabPage::describe(const StormRun &run, const QString &label)
{
    const QList<int> perSecond = run.retriesPerSecondAfterRecovery();
    if (perSecond.isEmpty())
        return label
            + tr("all %1 events parked DEAD during the outage: nothing left to retry.")
                  .arg(run.dead);
    const qsizetype busiest
        = std::max_element(perSecond.cbegin(), perSecond.cend()) - perSecond.cbegin();
    return label
        + tr("peak %1/s at +%2 s; %3 delivered, %4 DEAD; the last retry at +%5.")
              .arg(run.peakAfterRecovery())
              .arg(busiest)
              .arg(run.delivered)
              .arg(run.dead)
              .arg(seconds(run.finishedAt - run.setup.outageUntil));
}

void PolicyLabPage::showRuns(const QList<StormRun> &runs, qint64 elapsedMs)
{
    m_runs = runs;
    m_stormChart->setRuns(runs);
    QStringList lines;
    for (qsizetype i = 0; i < runs.size(); ++i)
        lines << describe(runs.at(i), PolicyLabColours::label(int(i), int(runs.size())));
    m_peak->setText(lines.join(QLatin1Char('\n')));
    m_status->setText(
        tr("Simulated in %1 ms by the relay on a scratch in-memory database.").arg(elapsedMs));
    emit simulated();
}

void PolicyLabPage::showSimulating(bool simulating)
{
    m_busy->setVisible(simulating);
    if (simulating)
        m_status->setText(tr("Simulating…"));
}

QString PolicyLabPage::errorText() const
{
    return m_error->text();
}

QString PolicyLabPage::deadText() const
{
    return m_dead->text();
}

QString PolicyLabPage::peakText() const
{
    return m_peak->text();
}

QString PolicyLabPage::statusText() const
{
    return m_status->text();
}

bool PolicyLabPage::isSimulating() const
{
    return m_lab->isSimulating();
}

QWidget *PolicyLabPage::focusTarget() const
{
    return m_policyA;
}
