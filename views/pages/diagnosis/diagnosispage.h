// The Diagnosis tab: the findings of the diagnosis engine (DiagnosisMonitor, on the health
// thread), worst first, each in its severity's colours (the palette's: a dark theme stays
// readable) with its summary, what to do, the evidence in a tooltip, and "Show events", which
// asks the window to filter the table to the affected events (FindingFilter). "No findings:
// healthy" when there are none; a small line says which rules were checked and which the schema
// could not support. A finding keeps its card (FindingCard) while it stays: only the cards of
// new findings are made and of gone ones deleted. Shows values only: it never reads the database.
#pragma once

#include "page.h"

#include "diagnosisresult.h"
#include "findingfilter.h"

#include <QWidget>

class FindingCard;
class QLabel;
class QVBoxLayout;

class DiagnosisPage : public QWidget, public Page
{
    Q_OBJECT
public:
    static inline const QString Key = QStringLiteral("diagnosis");

    explicit DiagnosisPage(QWidget *parent = nullptr);

    void setResult(const DiagnosisResult &result);
    // The newest diagnosis failed: the findings shown stay, marked as older.
    void setFailure(const QString &error);

    QStringList findingCodes() const; // as shown, worst first
    QString stateText() const; // "No findings: healthy", "2 findings", "Waiting…"
    QString checkedText() const; // "Checked 9 rules at 09:03:03 …"
    QString failureText() const; // why the newest diagnosis failed, or empty
    // The finding cards, worst first: the same widgets while their findings stay.
    QList<FindingCard *> cards() const;

    // The page contract (page.h).
    QWidget *focusTarget() const override; // the worst finding's "Show events", else the page

signals:
    void filterRequested(const FindingFilter &filter);

private:
    void showCards(const QList<Finding> &findings, qint64 now);

    QLabel *m_state = nullptr;
    QLabel *m_failure = nullptr;
    QVBoxLayout *m_cards = nullptr;
    QLabel *m_checked = nullptr;
    QList<FindingCard *> m_cardList; // as laid out in m_cards
    bool m_hasResult = false;
};
