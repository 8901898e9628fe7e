// The status bar's diagnosis line: "2 findings: relay stalled, one error dominates DEAD" or
// "No findings", in the colour of the worst severity (the palette's), updated with each
// diagnosis; never cut: a headline too wide for it names the worst findings that fit and how
// many more ("4 findings: DEAD events need an operator (and 3 more)"). Clicking it asks for
// the Diagnosis tab.
#pragma once

#include "diagnosisresult.h"

#include <QToolButton>

class DiagnosisStatusLine : public QToolButton
{
    Q_OBJECT
public:
    explicit DiagnosisStatusLine(QWidget *parent = nullptr);

    void setResult(const DiagnosisResult &result);
    void setFailure(const QString &error); // the newest diagnosis failed: the line says so
    // The whole headline; the line shows it, or as many findings as fit and how many more.
    QString fullText() const { return m_text; }

private:
    // `text` whole in the accessible name; `shown` (default: `text`) on the line.
    void display(const QString &text, const QColor &colour, const QString &toolTip,
        const QString &shown = {});
    QString shortened(const DiagnosisResult &result) const;

    QString m_text;
};
