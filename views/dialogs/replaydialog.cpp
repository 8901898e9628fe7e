#include "replaydialog.h"

#include "eventexplainer.h"
#include "numbertext.h"
#include "plaintext.h"
#include "themecolours.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QRadioButton>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

namespace {

const int PreviewListed = 5; // counts and skips named in the preview; the rest summed up
const int SignatureShown = 90; // characters of an error signature in the preview

QString elided(const QString &text)
{
    return text.size() <= SignatureShown ? text : text.left(SignatureShown - 1) + QChar(0x2026);
}

// "OrderPlaced (10), StockReserved (2)", largest first, at most PreviewListed named.
QString countsText(const QMap<QString, qint64> &counts)
{
    QList<std::pair<QString, qint64>> sorted;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        sorted.append({it.key(), it.value()});
    std::stable_sort(sorted.begin(), sorted.end(),
        [](const auto &a, const auto &b) { return a.second > b.second; });
    QStringList parts;
    for (qsizetype i = 0; i < sorted.size() && i < PreviewListed; ++i)
        parts << QStringLiteral("%1 (%2)").arg(
            elided(PlainText::escaped(sorted.at(i).first)), QString::number(sorted.at(i).second));
    if (sorted.size() > PreviewListed)
        parts << QStringLiteral("%1 more").arg(sorted.size() - PreviewListed);
    return parts.join(QStringLiteral(", "));
}

QString dueText(const ReplayPreview &preview)
{
    if (!preview.firstDue)
        return {};
    const auto clock
        = [&preview](qint64 time) { return EventExplainer::clockTime(time, preview.now); };
    if (preview.spreadMs == 0 || *preview.firstDue == *preview.lastDue)
        return QStringLiteral("Due: all at once, at %1 UTC").arg(clock(*preview.firstDue));
    return QStringLiteral("Due: spread from %1 to %2 UTC")
        .arg(clock(*preview.firstDue), clock(*preview.lastDue));
}

// The plan's summary in plain lines; stored text (IDs, types, errors) with its control characters
// escaped, and shown as plain text, never markup. What is left out has a label of its own.
QString previewSummary(const ActionPlan &plan, bool statementReplay)
{
    const ReplayPreview &preview = plan.replay;
    if (!plan.refusal.isEmpty() || preview.events == 0)
        return QStringLiteral("Would replay no event.");
    const QString how = statementReplay ? QStringLiteral("with the profile's replay statement")
        : preview.resetBudget           ? QStringLiteral("each with a fresh attempt budget")
                                        : QStringLiteral("each with one more attempt");
    QStringList lines
        = {QStringLiteral("Would replay %1, %2.")
                .arg(NumberText::counted(preview.events, u"event"_qs, u"events"_qs), how),
            QStringLiteral("By type: ") + countsText(preview.byType),
            QStringLiteral("By error group: ") + countsText(preview.byErrorGroup)};
    if (!statementReplay)
        lines << dueText(preview);
    lines.removeAll(QString());
    return lines.join(QLatin1Char('\n'));
}

// The plan's left-out lines, IDs escaped; the on-hold one says how to include them.
QString leftOutLinesText(const ActionPlan &plan, bool canInclude)
{
    QStringList lines;
    for (const QString &line : plan.leftOutLines()) {
        const bool held = line.contains(QStringLiteral(" on hold "));
        lines << PlainText::escaped(line)
                + (held && canInclude
                        ? QStringLiteral("; tick \"Include on-hold events\" to replay them too.")
                        : QString());
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace

OperatorDialog::Text ReplayDialog::text(qint64 count)
{
    return {QStringLiteral("replay"), tr("Replay parked events"), nativeHeading(count),
        tr("Why? e.g. consumer schema fixed in release 4.2 (required)"), confirmText(count),
        TypedConfirmationAbove};
}

QString ReplayDialog::nativeHeading(qint64 count)
{
    return tr("<b>Replay %n parked event(s)</b> with their same event IDs. Each is replayed "
              "in its own transaction, only while it is still DEAD, and recorded in the "
              "replay log.",
        nullptr, int(count));
}

QString ReplayDialog::confirmText(qint64 count)
{
    return tr("Replay %n event(s)", nullptr, int(count));
}

QString ReplayDialog::headingText(qint64 count) const
{
    if (m_statementProfile.isEmpty())
        return nativeHeading(count);
    const QString audit = m_auditWhere.isEmpty()
        ? tr("No audit store is configured, so the replay will be refused: start the window "
             "with --notes-db URL (a native database of Outbox Health's own).")
        : tr("Each is audited in %1.").arg(m_auditWhere.toHtmlEscaped());
    return tr("<b>Replay %n failed event(s)</b> with the %1 profile's replay statement. Each is "
              "replayed in its own transaction, only while it is still failed; the schema keeps "
              "no replay log.",
               nullptr, int(count))
               .arg(m_statementProfile.toHtmlEscaped())
        + u' ' + audit;
}

ReplayDialog::ReplayDialog(const QStringList &preview, qint64 count, QWidget *parent)
    : OperatorDialog(text(count), preview, count, parent)
    , m_reset(new QRadioButton(tr("Reset the attempt budget (failures back to 0)")))
    , m_oneMore(
          new QRadioButton(tr("One more attempt (failures kept; the next failure parks it again)")))
    , m_spreadMinutes(new QSpinBox)
    , m_previewBox(new QGroupBox(tr("What would happen (nothing changes until you confirm)")))
    , m_previewText(new QLabel)
    , m_previewWarning(new QLabel)
    , m_leftOut(new QLabel)
    , m_previewDelay(new QTimer(this))
    , m_includeOnHold(new QCheckBox(tr("Include on-hold events")))
{
    m_includeOnHold->setObjectName(QStringLiteral("replayIncludeOnHold"));
    m_includeOnHold->setToolTip(tr("Also replay the events an operator put on hold (a marker "
                                   "on the event or on its error group)"));
    m_oneMore->setChecked(true);
    m_spreadMinutes->setRange(0, 24 * 60);
    m_spreadMinutes->setSuffix(tr(" min"));
    m_spreadMinutes->setSpecialValueText(tr("all due now"));
    m_spreadMinutes->setToolTip(
        tr("Spread the new due times evenly over this window, so a recovering "
           "downstream is not hit all at once"));
    addRow(tr("Budget"), m_oneMore);
    addRow(QString(), m_reset);
    addRow(tr("Spread over"), m_spreadMinutes);
    addRow(QString(), m_includeOnHold);
    form()->setRowVisible(m_includeOnHold, false); // a bulk selection's (showPreview)
    connect(m_includeOnHold, &QCheckBox::toggled, this, [this](bool include) {
        m_selection.includeOnHold = include;
        requestPreview();
    });
    setupPreviewBox();
    addPanel(m_previewBox);
    m_previewDelay->setSingleShot(true);
    m_previewDelay->setInterval(250);
    connect(m_previewDelay, &QTimer::timeout, this, &ReplayDialog::requestPreview);
    connect(m_spreadMinutes, &QSpinBox::valueChanged, m_previewDelay, qOverload<>(&QTimer::start));
    connect(m_reset, &QRadioButton::toggled, this, &ReplayDialog::requestPreview);
}

void ReplayDialog::setupPreviewBox()
{
    m_previewBox->setObjectName(QStringLiteral("replayPreviewBox"));
    m_previewText->setObjectName(QStringLiteral("replayPreviewText"));
    m_previewWarning->setObjectName(QStringLiteral("replayPreviewWarning"));
    m_leftOut->setObjectName(QStringLiteral("replayLeftOut"));
    for (QLabel *label : {m_leftOut, m_previewText, m_previewWarning}) {
        label->setTextFormat(Qt::PlainText); // signatures read "<n>": never markup
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_previewWarning->setStyleSheet(
        QStringLiteral("font-weight: bold; color: %1").arg(ThemeColours::errorText().name()));
    m_previewWarning->hide();
    // What the plan leaves out comes first, in bold: it is never below the fold.
    m_leftOut->setStyleSheet(QStringLiteral("font-weight: bold"));
    m_leftOut->hide();
    auto *previewLayout = new QVBoxLayout(m_previewBox);
    previewLayout->addWidget(m_leftOut);
    previewLayout->addWidget(m_previewText);
    previewLayout->addWidget(m_previewWarning);
    m_previewBox->hide(); // until showPreview()
}

void ReplayDialog::setStatementReplay(const QString &profileName, const QString &auditWhere)
{
    m_statementProfile = profileName;
    m_auditWhere = auditWhere;
    heading()->setText(headingText(count()));
    form()->setRowVisible(m_oneMore, false);
    form()->setRowVisible(m_reset, false);
    form()->setRowVisible(m_spreadMinutes, false);
    m_statementReplay = true;
    m_oneMore->setChecked(true);
    m_spreadMinutes->setValue(0);
}

void ReplayDialog::showPreview(
    TriageReader *reader, const ReplaySelection &selection, std::function<qint64()> clock)
{
    m_reader = reader;
    m_selection = selection;
    m_selection.includeOnHold = m_includeOnHold->isChecked();
    form()->setRowVisible(m_includeOnHold, selection.isBulk());
    m_clock = std::move(clock);
    connect(reader, &TriageReader::previewLoaded, this, &ReplayDialog::applyPreview);
    connect(reader, &TriageReader::previewFailed, this, &ReplayDialog::failPreview);
    m_previewBox->show();
    requestPreview();
}

void ReplayDialog::requestPreview()
{
    if (!m_reader)
        return;
    m_previewDelay->stop();
    m_previewReady = false;
    m_plan.reset();
    updateOk();
    m_previewText->setText(tr("Computing what the replay would do…"));
    m_previewWarning->hide();
    ReplayRequest request;
    request.resetBudget = resetBudget();
    request.spreadMs = spreadMs();
    request.now = m_clock ? m_clock() : 0;
    m_previewRequest = m_reader->requestPreview(m_selection, request);
}

void ReplayDialog::applyPreview(quint64 requestId, const ActionPlan &plan)
{
    if (requestId != m_previewRequest)
        return;
    m_previewReady = true;
    m_plan = plan;
    setCount(plan.count(), headingText(plan.count()), confirmText(plan.count()));
    setEvents(plan.targets, plan.count()); // the plan's events, not the selection's
    m_previewText->setText(previewSummary(plan, m_statementReplay));
    m_leftOut->setText(leftOutLinesText(plan, m_selection.isBulk()));
    m_leftOut->setVisible(!m_leftOut->text().isEmpty());
    const QString warning = plan.replay.warning;
    m_previewWarning->setText(
        warning.isEmpty() ? QString() : tr("Warning: ") + PlainText::escaped(warning));
    m_previewWarning->setVisible(!warning.isEmpty());
    fitHeight();
}

void ReplayDialog::failPreview(quint64 requestId, const QString &error)
{
    if (requestId != m_previewRequest)
        return;
    m_previewReady = true;
    m_plan.reset(); // nothing to execute: the confirm button stays disabled
    m_previewText->setText(tr("No preview: could not read the events: %1").arg(error));
    m_leftOut->hide();
    m_previewWarning->hide();
    updateOk();
    fitHeight();
}

QString ReplayDialog::previewText() const
{
    const QString left = m_leftOut->isVisibleTo(m_previewBox) ? m_leftOut->text() : QString();
    return left.isEmpty() ? m_previewText->text()
                          : m_previewText->text() + QLatin1Char('\n') + left;
}

QString ReplayDialog::leftOutText() const
{
    return m_leftOut->isVisibleTo(m_previewBox) ? m_leftOut->text() : QString();
}

bool ReplayDialog::isComplete() const
{
    // With a plan coming, only the plan can be confirmed: what it counts is what will happen.
    return OperatorDialog::isComplete() && (!m_reader || (m_plan && m_plan->refusal.isEmpty()));
}

QString ReplayDialog::previewWarning() const
{
    return m_previewWarning->isVisibleTo(m_previewBox) ? m_previewWarning->text() : QString();
}

bool ReplayDialog::includeOnHold() const
{
    return m_includeOnHold->isChecked();
}

bool ReplayDialog::resetBudget() const
{
    return m_reset->isChecked();
}

qint64 ReplayDialog::spreadMs() const
{
    return qint64(m_spreadMinutes->value()) * 60000;
}
