// Asks an operator to confirm a replay of parked (DEAD) events, in OperatorDialog's frame: how
// many and which, a required reason, who they are (the OS user by default), whether to reset the
// attempt budget or allow one more attempt, and a window to spread the new due times over. Above
// 100 events the operator types the count to confirm. With a preview, it shows before the
// confirmation the replay's plan (ActionPlan, computed on a worker thread, changing nothing):
// the heading, the typed count and the button then name the count the plan will act on, what
// it leaves out and why is shown in lines of its own, and confirming executes that plan.
#pragma once

#include "operatordialog.h"
#include "triagereader.h"

#include <QPointer>
#include <functional>
#include <optional>

class QCheckBox;
class QGroupBox;
class QLabel;
class QRadioButton;
class QSpinBox;
class QTimer;

class ReplayDialog : public OperatorDialog
{
    Q_OBJECT
public:
    // `preview` lists some or all of the `count` events.
    ReplayDialog(const QStringList &preview, qint64 count, QWidget *parent = nullptr);

    bool resetBudget() const;
    // Replay all matching: also the events an on-hold marker covers (left out by default, the
    // preview saying how many).
    bool includeOnHold() const;
    qint64 spreadMs() const;

    // Another library's table: its profile's fenced statement replays, so there is no budget
    // choice, no spread window and no replay log; those rows are hidden and the heading says so,
    // and where each replay is audited (`auditWhere`, NotesAccess::auditWhere(); empty: no audit
    // store, so the replay will be refused).
    void setStatementReplay(const QString &profileName, const QString &auditWhere = {});

    // What the replay would do: how many events, by type and by error group, which would be
    // skipped and why, when they would become due, and a warning when most share a PERMANENT
    // error. Computed on `reader`'s worker for `selection` at `clock()` with the dialog's
    // budget and spread, again whenever they change. Reads only.
    void showPreview(
        TriageReader *reader, const ReplaySelection &selection, std::function<qint64()> clock);
    bool isPreviewReady() const { return m_previewReady; }
    QString previewText() const; // "Computing…" until it is ready
    QString previewWarning() const; // empty when there is none
    QString leftOutText() const; // the plan's left-out lines; empty when nothing is left out
    // The plan shown, once it is ready: what confirming executes (its targets, its count).
    std::optional<ActionPlan> plan() const { return m_plan; }
    // A plan ready (and not refused), besides the reason, operator and typed count.
    bool isComplete() const override;

private:
    static Text text(qint64 count);
    static QString nativeHeading(qint64 count);
    static QString confirmText(qint64 count);
    QString headingText(qint64 count) const;
    void setupPreviewBox();
    void requestPreview();
    void applyPreview(quint64 requestId, const ActionPlan &plan);
    void failPreview(quint64 requestId, const QString &error);

    QRadioButton *m_reset = nullptr;
    QRadioButton *m_oneMore = nullptr;
    QSpinBox *m_spreadMinutes = nullptr;
    QGroupBox *m_previewBox = nullptr;
    QLabel *m_previewText = nullptr;
    QLabel *m_previewWarning = nullptr;
    QLabel *m_leftOut = nullptr; // the plan's left-out lines, word-wrapped
    QTimer *m_previewDelay = nullptr; // a spread typed digit by digit is one preview
    QPointer<TriageReader> m_reader;
    ReplaySelection m_selection;
    std::function<qint64()> m_clock;
    quint64 m_previewRequest = 0; // the newest preview asked for; other answers are not ours
    bool m_previewReady = false;
    bool m_statementReplay = false; // another schema's statement: no budget or spread
    QString m_statementProfile; // its profile's name
    QString m_auditWhere;
    std::optional<ActionPlan> m_plan; // the newest plan, once ready
    QCheckBox *m_includeOnHold = nullptr;
};
