#include "diagnosisstatusline.h"

#include "themecolours.h"

namespace {

constexpr int MaxTextWidth = 560; // px: the other status labels keep their room

// The worst finding's (they come worst first); none for no finding or only info ones.
QColor colourOf(const DiagnosisResult &result)
{
    if (result.findings.isEmpty())
        return {};
    switch (result.findings.constFirst().severity) {
    case Finding::Severity::Critical:
        return ThemeColours::errorText();
    case Finding::Severity::Warning:
        return ThemeColours::warningText();
    case Finding::Severity::Info:
        break;
    }
    return {};
}

} // namespace

DiagnosisStatusLine::DiagnosisStatusLine(QWidget *parent)
    : QToolButton(parent)
{
    setObjectName(u"diagnosisStatus"_qs);
    setAutoRaise(true);
    setCursor(Qt::PointingHandCursor);
    display(tr("Diagnosis: waiting…"), {}, tr("Show the Diagnosis tab"));
}

void DiagnosisStatusLine::setResult(const DiagnosisResult &result)
{
    const QString text = result.headline();
    display(text, colourOf(result), tr("%1 — show the Diagnosis tab").arg(text), shortened(result));
}

// The headline, or, when it is wider than the line may be, as many findings as fit, worst
// first, and how many more: whole words, never cut with "…" (the whole list in the tooltip).
QString DiagnosisStatusLine::shortened(const DiagnosisResult &result) const
{
    const QString whole = result.headline();
    if (fontMetrics().horizontalAdvance(whole) <= MaxTextWidth || result.findings.size() < 2)
        return whole;
    QStringList names;
    for (const Finding &finding : result.findings)
        names << Finding::shortName(finding.code);
    QString text;
    for (qsizetype shown = names.size() - 1; shown >= 1; --shown) {
        text = tr("%1 findings: %2 (and %3 more)")
                   .arg(names.size())
                   .arg(names.mid(0, shown).join(u", "_qs))
                   .arg(names.size() - shown);
        if (fontMetrics().horizontalAdvance(text) <= MaxTextWidth)
            break;
    }
    return text;
}

void DiagnosisStatusLine::setFailure(const QString &error)
{
    display(tr("Diagnosis failed"), ThemeColours::warningText(),
        tr("The newest diagnosis could not run: %1").arg(error));
}

void DiagnosisStatusLine::display(
    const QString &text, const QColor &colour, const QString &toolTip, const QString &shown)
{
    m_text = text;
    setText(shown.isEmpty() ? text : shown);
    setAccessibleName(text); // the whole line, never the elided one
    setToolTip(toolTip);
    // As tall as the status bar's labels, so the table keeps its rows; coloured by severity.
    const QString style = u"QToolButton { border: none; padding: 0 4px; %1 }"_qs.arg(
        colour.isValid() ? u"color: %1; font-weight: 600;"_qs.arg(colour.name()) : QString());
    if (style != styleSheet()) // restyling re-polishes: only on a change (each diagnosis calls)
        setStyleSheet(style);
    // Never squeezed: the connection line beside it gives way instead (ElidingLabel).
    ensurePolished();
    setMinimumWidth(sizeHint().width());
}
