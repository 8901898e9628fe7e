// The status bar's diagnosis line: "2 findings: relay stalled, one error dominates DEAD" or
// "No findings", in the colour of the worst severity (the palette's), updated with each
// diagnosis. Clicking it asks for the Diagnosis tab.
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
    QString fullText() const { return m_text; } // the line before eliding

private:
    void display(const QString &text, const QColor &colour, const QString &toolTip);

    QString m_text;
};
