#include "diagnosisstatusline.h"

#include "themecolours.h"

namespace {

constexpr int MaxTextWidth = 480; // px: the other status labels keep their room
constexpr int MinimumWidth = 120;

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
    setMinimumWidth(MinimumWidth); // squeezed on a narrow window; the whole line in the tooltip
    display(tr("Diagnosis: waiting…"), {}, tr("Show the Diagnosis tab"));
}

void DiagnosisStatusLine::setResult(const DiagnosisResult &result)
{
    const QString text = result.headline();
    display(text, colourOf(result), tr("%1 — show the Diagnosis tab").arg(text));
}

void DiagnosisStatusLine::setFailure(const QString &error)
{
    display(tr("Diagnosis failed"), ThemeColours::warningText(),
        tr("The newest diagnosis could not run: %1").arg(error));
}

void DiagnosisStatusLine::display(const QString &text, const QColor &colour, const QString &toolTip)
{
    m_text = text;
    setText(fontMetrics().elidedText(text, Qt::ElideRight, MaxTextWidth));
    setAccessibleName(text); // the whole line, never the elided one
    setToolTip(toolTip);
    // As tall as the status bar's labels, so the table keeps its rows; coloured by severity.
    const QString style = u"QToolButton { border: none; padding: 0 4px; %1 }"_qs.arg(
        colour.isValid() ? u"color: %1; font-weight: 600;"_qs.arg(colour.name()) : QString());
    if (style != styleSheet()) // restyling re-polishes: only on a change (each diagnosis calls)
        setStyleSheet(style);
}
