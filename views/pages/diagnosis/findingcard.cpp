#include "findingcard.h"

#include "numbertext.h"
#include "plaintext.h"
#include "themecolours.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace {

ThemeColours::TileLevel levelOf(Finding::Severity severity)
{
    switch (severity) {
    case Finding::Severity::Critical:
        return ThemeColours::TileLevel::Red;
    case Finding::Severity::Warning:
        return ThemeColours::TileLevel::Amber;
    case Finding::Severity::Info:
        break;
    }
    return ThemeColours::TileLevel::Normal;
}

QLabel *plainLabel(const QString &objectName, QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setTextFormat(Qt::PlainText); // summaries quote error messages and event types
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

// Qt lays a label out again and keeps its old text layout for a while even for the same text.
void setTextIfChanged(QLabel *label, const QString &text)
{
    if (label->text() != text)
        label->setText(text);
}

void setToolTipIfChanged(QWidget *widget, const QString &tip)
{
    if (widget->toolTip() != tip)
        widget->setToolTip(tip);
}

// The evidence in outboxctl diagnose's words (Finding::evidenceLines), one a line.
QString evidenceToolTip(const Finding &finding, qint64 now)
{
    return FindingCard::tr("Evidence:\n%1").arg(finding.evidenceLines(now).join(u'\n'));
}

bool sameFilter(const std::optional<FindingFilter> &a, const std::optional<FindingFilter> &b)
{
    if (!a || !b)
        return !a && !b;
    return a->filter == b->filter && a->oldestFirst == b->oldestFirst && a->exact == b->exact;
}

} // namespace

FindingCard::FindingCard(const QString &code, QWidget *parent)
    : QFrame(parent)
    , m_code(code)
    , m_title(plainLabel(u"findingTitle"_qs, this))
    , m_summary(plainLabel(u"findingSummary"_qs, this))
    , m_action(plainLabel(u"findingAction"_qs, this))
    , m_show(new QPushButton(tr("Show events"), this))
{
    setObjectName(u"finding_"_qs + code);
    m_title->setStyleSheet(u"font-weight: 600;"_qs);
    m_title->setToolTip(code);
    m_show->setObjectName(u"showEvents_"_qs + code);
    m_show->hide();
    connect(m_show, &QPushButton::clicked, this, [this] {
        if (m_filter)
            emit filterRequested(*m_filter);
    });
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 6, 10, 6);
    layout->addWidget(m_title);
    layout->addWidget(m_summary);
    layout->addWidget(m_action);
    auto *row = new QHBoxLayout;
    row->addStretch(1);
    row->addWidget(m_show);
    layout->addLayout(row);
}

void FindingCard::setFinding(const Finding &finding, qint64 now)
{
    Q_ASSERT(finding.code == m_code);
    setSeverity(finding.severity);
    setTextIfChanged(m_title,
        tr("%1 · %2 · %3")
            .arg(Finding::severityName(finding.severity).toUpper(), Finding::shortName(m_code),
                m_code == DiagnosisCode::BlockedAggregate
                    ? NumberText::counted(finding.count, tr("aggregate"), tr("aggregates"))
                    : m_code == DiagnosisCode::CdcSlot // one slot, named: no events counted
                    ? finding.subject
                    : NumberText::counted(finding.count, tr("event"), tr("events"))));
    // Summaries and actions quote errors and event types: invisible characters shown escaped.
    setTextIfChanged(m_summary, PlainText::escaped(finding.summary));
    setToolTipIfChanged(m_summary, evidenceToolTip(finding, now));
    setTextIfChanged(m_action,
        tr("What to do: %1").arg(PlainText::escaped(finding.actionFor(Advice::Surface::Window))));
    setFilter(FindingFilter::of(finding));
    // Four cards, four buttons: a screen reader tells them apart by what they show.
    const QString name = tr("Show events: %1").arg(Finding::shortName(m_code));
    if (m_show->accessibleName() != name)
        m_show->setAccessibleName(name);
}

// A style sheet polishes the frame and every child again: only when the colours change.
void FindingCard::setSeverity(Finding::Severity severity)
{
    if (m_severity == severity)
        return;
    m_severity = severity;
    setStyleSheet(ThemeColours::bannerStyleSheet(objectName(), levelOf(severity)));
}

void FindingCard::setFilter(const std::optional<FindingFilter> &filter)
{
    if (sameFilter(m_filter, filter))
        return;
    m_filter = filter;
    m_show->setHidden(!filter);
    if (!filter)
        return;
    setToolTipIfChanged(m_show,
        tr("Filter the table to: %1%2")
            .arg(filter->filter.summary().isEmpty() ? tr("every event, newest first")
                                                    : filter->filter.summary(),
                filter->exact ? QString() : tr(" (also events the finding did not count)")));
}
