#include "diagnosispanel.h"

#include "themecolours.h"

#include <QDateTime>
#include <QFrame>
#include <QHBoxLayout>
#include <QHash>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

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

QLabel *plainLabel(const QString &text, const QString &objectName)
{
    auto *label = new QLabel(text);
    label->setObjectName(objectName);
    label->setTextFormat(Qt::PlainText); // summaries quote error messages and event types
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

// "1 finding", "2 findings" (no translation file supplies %n's plural forms).
QString counted(qint64 count, const QString &one, const QString &many)
{
    return QStringLiteral("%1 %2").arg(count).arg(count == 1 ? one : many);
}

// Whether "Show events" of the two findings shows the same events.
bool sameFilter(const Finding &x, const Finding &y)
{
    const std::optional<FindingFilter> a = FindingFilter::of(x);
    const std::optional<FindingFilter> b = FindingFilter::of(y);
    if (!a || !b)
        return !a && !b;
    return a->filter == b->filter && a->oldestFirst == b->oldestFirst && a->exact == b->exact;
}

// Whether two lists of findings read the same: then the cards stay (no flicker, a tooltip or a
// focused button survives the refresh, nothing is laid out again). The evidence, shown only in
// a tooltip and moving with the clock (an oldest age), is then updated in place.
bool sameCards(const QList<Finding> &a, const QList<Finding> &b)
{
    return std::equal(
        a.cbegin(), a.cend(), b.cbegin(), b.cend(), [](const Finding &x, const Finding &y) {
            return x.code == y.code && x.severity == y.severity && x.count == y.count
                && x.summary == y.summary && x.action == y.action && x.subject == y.subject
                && sameFilter(x, y);
        });
}

QString evidenceText(const QVariantMap &evidence)
{
    QStringList parts;
    for (auto it = evidence.cbegin(); it != evidence.cend(); ++it)
        parts << it.key() + u" = "_qs + it.value().toString();
    return parts.join(u'\n');
}

QString evidenceToolTip(const QVariantMap &evidence)
{
    return DiagnosisPanel::tr("Evidence:\n%1").arg(evidenceText(evidence));
}

} // namespace

DiagnosisPanel::DiagnosisPanel(QWidget *parent)
    : QWidget(parent)
    , m_state(new QLabel(tr("Waiting for the first diagnosis…")))
    , m_failure(new QLabel)
    , m_cards(new QVBoxLayout)
    , m_checked(new QLabel)
{
    setObjectName(u"diagnosisPanel"_qs);
    m_state->setObjectName(u"diagnosisState"_qs);
    m_state->setStyleSheet(u"font-weight: 600;"_qs);
    m_failure->setObjectName(u"diagnosisFailure"_qs);
    m_failure->setTextFormat(Qt::PlainText);
    m_failure->setWordWrap(true);
    m_failure->setStyleSheet(u"color: %1"_qs.arg(ThemeColours::warningText().name()));
    m_failure->hide();
    m_checked->setObjectName(u"diagnosisChecked"_qs);
    m_checked->setWordWrap(true);
    m_checked->setStyleSheet(u"font-size: 8pt; color: %1"_qs.arg(ThemeColours::neutral().name()));
    m_cards->setContentsMargins(0, 0, 0, 0);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_state);
    layout->addWidget(m_failure);
    layout->addLayout(m_cards);
    layout->addWidget(m_checked);
    layout->addStretch(1);
}

void DiagnosisPanel::setResult(const DiagnosisResult &result)
{
    if (!m_hasResult || !sameCards(m_shown, result.findings)) {
        clearCards();
        for (const Finding &finding : result.findings) {
            m_cards->addWidget(card(finding));
            m_codes << finding.code;
        }
    } else {
        for (int i = 0; i < result.findings.size(); ++i) {
            if (auto *summary = m_cards->itemAt(i)->widget()->findChild<QLabel *>(
                    u"findingSummary"_qs, Qt::FindDirectChildrenOnly))
                summary->setToolTip(evidenceToolTip(result.findings.at(i).evidence));
        }
    }
    m_shown = result.findings;
    m_hasResult = true;
    m_state->setText(result.findings.isEmpty()
            ? tr("No findings: healthy")
            : tr("%1, worst first")
                  .arg(counted(result.findings.size(), tr("finding"), tr("findings"))));
    m_failure->hide();
    QString checked = tr("Checked %1 at %2 in %3 ms")
                          .arg(counted(result.checked.size(), tr("rule"), tr("rules")),
                              QDateTime::currentDateTime().toString(u"HH:mm:ss"_qs))
                          .arg(result.queryMs);
    QStringList tip {tr("Checked: %1").arg(result.checked.join(u", "_qs))};
    if (!result.notChecked.isEmpty()) {
        checked += tr("; not checked: %1").arg(result.notChecked.join(u", "_qs));
        for (const QString &code : result.notChecked)
            tip << tr("Not checked: %1 (%2)").arg(code, result.notCheckedReasons.value(code));
    }
    m_checked->setText(checked);
    m_checked->setToolTip(tip.join(u'\n'));
}

void DiagnosisPanel::setFailure(const QString &error)
{
    m_failure->setText(!m_hasResult
            ? tr("The diagnosis could not run: %1").arg(error)
            : tr("The newest diagnosis could not run (showing the last one): %1").arg(error));
    m_failure->show();
}

void DiagnosisPanel::clearCards()
{
    while (QLayoutItem *item = m_cards->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_codes.clear();
}

QWidget *DiagnosisPanel::card(const Finding &finding)
{
    auto *frame = new QFrame;
    frame->setObjectName(u"finding_"_qs + finding.code);
    frame->setStyleSheet(
        ThemeColours::bannerStyleSheet(frame->objectName(), levelOf(finding.severity)));
    auto *title = plainLabel(tr("%1 · %2 · %3")
                                 .arg(Finding::severityName(finding.severity).toUpper(),
                                     Finding::shortName(finding.code),
                                     finding.code == DiagnosisCode::BlockedAggregate
                                         ? counted(finding.count, tr("aggregate"), tr("aggregates"))
                                         : counted(finding.count, tr("event"), tr("events"))),
        u"findingTitle"_qs);
    title->setStyleSheet(u"font-weight: 600;"_qs);
    title->setToolTip(finding.code);
    auto *summary = plainLabel(finding.summary, u"findingSummary"_qs);
    summary->setToolTip(evidenceToolTip(finding.evidence));
    auto *action = plainLabel(tr("What to do: %1").arg(finding.action), u"findingAction"_qs);
    auto *layout = new QVBoxLayout(frame);
    layout->setContentsMargins(10, 6, 10, 6);
    layout->addWidget(title);
    layout->addWidget(summary);
    layout->addWidget(action);
    if (const std::optional<FindingFilter> filter = FindingFilter::of(finding)) {
        auto *show = new QPushButton(tr("Show events"));
        show->setObjectName(u"showEvents_"_qs + finding.code);
        show->setToolTip(
            tr("Filter the table to: %1%2")
                .arg(filter->filter.summary().isEmpty() ? tr("every event, newest first")
                                                        : filter->filter.summary(),
                    filter->exact ? QString() : tr(" (also events the finding did not count)")));
        connect(show, &QPushButton::clicked, this,
            [this, value = *filter] { emit filterRequested(value); });
        auto *row = new QHBoxLayout;
        row->addStretch(1);
        row->addWidget(show);
        layout->addLayout(row);
    }
    return frame;
}

QStringList DiagnosisPanel::findingCodes() const
{
    return m_codes;
}

QString DiagnosisPanel::stateText() const
{
    return m_state->text();
}

QString DiagnosisPanel::checkedText() const
{
    return m_checked->text();
}

QString DiagnosisPanel::failureText() const
{
    return m_failure->isHidden() ? QString() : m_failure->text();
}
