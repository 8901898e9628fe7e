// One finding on the Diagnosis page: a frame in its severity's colours with the title
// (severity, short name, count), the summary (its evidence in a tooltip), what to do and, when
// the finding names its events, "Show events". A card shows one finding code and is updated in
// place when that finding changes, so a long-running window keeps the same widgets (new labels
// and style sheets on every change are what made the demo's memory grow).
#pragma once

#include "diagnosisresult.h"
#include "findingfilter.h"

#include <QFrame>

#include <optional>

class QLabel;
class QPushButton;

class FindingCard : public QFrame
{
    Q_OBJECT
public:
    explicit FindingCard(const QString &code, QWidget *parent = nullptr);

    QString code() const { return m_code; }
    // "Show events", hidden when the finding names no events; its accessible name says which
    // ("Show events: dead events").
    QPushButton *showButton() const { return m_show; }
    // `now`: the diagnosis' time, whose clock the evidence's spans are said in.
    void setFinding(const Finding &finding, qint64 now);

signals:
    void filterRequested(const FindingFilter &filter);

private:
    void setSeverity(Finding::Severity severity);
    void setFilter(const std::optional<FindingFilter> &filter);

    const QString m_code;
    QLabel *m_title = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_action = nullptr;
    QPushButton *m_show = nullptr;
    std::optional<Finding::Severity> m_severity; // the colours applied
    std::optional<FindingFilter> m_filter; // what "Show events" asks for
};
