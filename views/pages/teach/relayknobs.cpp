#include "relayknobs.h"

#include "teachingsession.h"
#include "themecolours.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

namespace {

QDoubleSpinBox *percentBox(double value)
{
    auto *box = new QDoubleSpinBox;
    box->setRange(0, 100);
    box->setDecimals(0);
    box->setSuffix(QStringLiteral(" %"));
    box->setValue(value * 100.0);
    return box;
}

QSpinBox *countBox(int maximum, int value)
{
    auto *box = new QSpinBox;
    box->setRange(1, maximum);
    box->setValue(value);
    return box;
}

} // namespace

RelayKnobs::RelayKnobs(QWidget *parent)
    : QGroupBox(tr("Live relay: fault knobs and policy"), parent)
{
    const RelayConfig demo = TeachingSession::demoRelayConfig();
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
    m_budget = countBox(100, demo.budget.maxAttempts);
    m_workers = countBox(16, demo.workers);
    m_rate = new QDoubleSpinBox;
    m_rate->setRange(0.1, 1000);
    m_rate->setSuffix(tr(" events/s"));
    m_rate->setValue(TeachingSession::DemoEventsPerSecond);

    auto *form = new QFormLayout(this);
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
        connect(rate, &QDoubleSpinBox::valueChanged, this, &RelayKnobs::faultsChanged);
}

bool RelayKnobs::readConfig(RelayConfig *config)
{
    *config = TeachingSession::demoRelayConfig();
    QString error;
    m_policyError->clear();
    if (!RetryPolicy::parse(m_policy->text(), &config->policy, &error)) {
        m_policyError->setText(error);
        return false;
    }
    config->budget.maxAttempts = m_budget->value();
    config->workers = m_workers->value();
    config->stallRate = m_stall->value() / 100.0;
    config->faults = faults(config->faults);
    return true;
}

double RelayKnobs::eventsPerSecond() const
{
    return m_rate->value();
}

FaultProfile RelayKnobs::faults(FaultProfile base) const
{
    base.transientRate = m_transient->value() / 100.0;
    base.permanentRate = m_permanent->value() / 100.0;
    base.lostAckRate = m_lostAck->value() / 100.0;
    return base;
}
