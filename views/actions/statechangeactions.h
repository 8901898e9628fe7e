// The window's side of a StateChange (resolve, reopen): "… selected" (enabled while the
// selection holds a row in the state the change takes) asks with the action's dialog who and
// why (and, above its threshold, the count typed), then runs the change on an
// OperatorRunner's thread: deleting the actions (closing the window) stops it between two
// events and waits; its progress, rate and Cancel show in a part of the status bar
// (status()), then its outcome. Disabled, its tooltip saying why, in read-only mode, through a
// profile (the change's own words) and on a native schema older than version 2.
// ResolveActions and ReopenActions are its two configurations: a Spec and their own signals.
#pragma once

#include "dbconnection.h"
#include "operatorrunner.h"
#include "outboxprofile.h"
#include "statechange.h"
#include "tablegrants.h"

#include <QObject>
#include <functional>
#include <memory>
#include <optional>

class JobStatus;
class OperatorDialog;
class QAction;
class QTableView;
class QWidget;

class StateChangeActions : public QObject
{
    Q_OBJECT
public:
    using Clock = std::function<qint64()>;

    // What differs between two actions; the texts are the action's own (its tr()).
    struct Spec
    {
        const StateChange::Spec *change = nullptr; // from, to, the log, the words
        QString name; // "resolve": "resolveSelectedAction", "resolveStatus", "outbox-resolve"
        QString action; // "Resolve selected…"
        QString shortcut; // empty: none
        QString tip; // the action's tooltip while it is possible
        QString selectFirst; // said when nothing in the from-state is selected
        std::function<QString(const OutboxProfile &)> profileRefusal; // the tooltip then
        QString newerSchema; // "Resolve needs a newer schema: %1"
        OperatorRunner::ProgressText progress; // "Resolving…", "Resolving %1 of %2"
        QString did; // the status bar's end: "Resolved %1 of %2"
        // The outcome's title and sentences, with the outcome's counts.
        std::function<OperatorRunner::ReportText(const OperatorOutcome &outcome)> report;
        // The confirmation for these events.
        std::function<std::unique_ptr<OperatorDialog>(const QStringList &ids, QWidget *parent)>
            dialog;
        TableGrants::Operation grants = TableGrants::Operation::Resolve; // the writes it makes
    };

    StateChangeActions(Spec spec, const DatabaseUrl &url, QTableView *view, bool readOnly,
        Clock clock, QWidget *window);
    ~StateChangeActions() override; // stops a running change between two events and waits

    void setProfile(const OutboxProfile &profile);
    // The native schema's version, from the health snapshot (0 until the first one).
    void setSchemaVersion(int version);
    // What the database's grants allow the connected role (GrantsMonitor).
    void setGrants(const TableGrants &grants);
    // Why the change is not possible here; empty when it is.
    QString refusal() const;

    QAction *selectedAction() const { return m_selected; }
    bool isBusy() const;
    // The status bar's part for the change: progress and Cancel, then the outcome.
    JobStatus *status() const;

    // Changes in the background; finished follows (also when refused).
    void start(const OperatorRequest &request);
    // Asks with the dialog (who and why), then changes these events (an error group's DEAD
    // events, say); nothing when the change is refused here or one already runs.
    void askAndStart(const QStringList &ids);

signals:
    void finished(const OperatorOutcome &outcome);
    // Events taken (done or skipped) of the total, on the change's thread, as
    // OperatorActions::replayProgressed.
    void progressed(qint64 taken, qint64 total);
    void availabilityChanged(); // refusal() or isBusy() changed

private:
    void startSelected();
    void updateEnabled();

    Spec m_spec;
    bool m_readOnly = false;
    Clock m_clock;
    QWidget *m_window = nullptr;
    std::optional<OutboxProfile> m_profile; // only for another schema than the native one
    int m_schemaVersion = 0;
    TableGrants m_grants; // unknown until read: nothing refused by them
    QAction *m_selected = nullptr;
    bool m_interactive = false;
    OperatorRunner *m_runner = nullptr;
};
