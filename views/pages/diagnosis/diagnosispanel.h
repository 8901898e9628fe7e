// The Diagnosis tab: the findings of the diagnosis engine (DiagnosisMonitor, on the health
// thread), worst first, each in its severity's colours (the palette's: a dark theme stays
// readable) with its summary, what to do, the evidence in a tooltip, and "Show events", which
// asks the window to filter the table to the affected events (FindingFilter). "No findings:
// healthy" when there are none; a small line says which rules were checked and which the schema
// could not support. Shows values only: it never reads the database.
#pragma once

#include "diagnosisresult.h"
#include "findingfilter.h"

#include <QWidget>

class QLabel;
class QVBoxLayout;

class DiagnosisPanel : public QWidget
{
    Q_OBJECT
public:
    explicit DiagnosisPanel(QWidget *parent = nullptr);

    void setResult(const DiagnosisResult &result);
    // The newest diagnosis failed: the findings shown stay, marked as older.
    void setFailure(const QString &error);

    QStringList findingCodes() const; // as shown, worst first
    QString stateText() const; // "No findings: healthy", "2 findings", "Waiting…"
    QString checkedText() const; // "Checked 9 rules at 09:03:03 …"
    QString failureText() const; // why the newest diagnosis failed, or empty

signals:
    void filterRequested(const FindingFilter &filter);

private:
    QWidget *card(const Finding &finding);
    void clearCards();

    QLabel *m_state = nullptr;
    QLabel *m_failure = nullptr;
    QVBoxLayout *m_cards = nullptr;
    QLabel *m_checked = nullptr;
    QStringList m_codes;
    QList<Finding> m_shown; // what the cards show
    bool m_hasResult = false;
};
