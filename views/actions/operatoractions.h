// The operator's actions on the event table: replay the selected DEAD events (Ctrl+Shift+R,
// enabled while the selection holds a DEAD row), replay every
// DEAD event matching the current filter (not only the loaded page), and export the filtered
// events and the replay log to CSV with payloads redacted. Counts, replays and exports run on
// threads of their own with their own connections, owned here: deleting the actions (closing
// the window) stops a replay between two events and an export between two rows, and waits for
// the thread (OperatorRunner, the wiring replay shares with resolve). A replay and an export
// each show their progress, rate and Cancel in a part of the status bar (JobStatus), then their
// outcome there. In read-only mode every mutating action is disabled.
#pragma once

#include "actionplan.h"
#include "dbconnection.h"
#include "eventfilter.h"
#include "operatorrunner.h"
#include "outboxprofile.h"
#include "replaytypes.h"
#include "tablegrants.h"

#include <QObject>
#include <functional>
#include <memory>
#include <optional>

class CsvExportJob;
class EventListModel;
class JobStatus;
class TriageReader;
class QAction;
class QTableView;
class QWidget;
class ReplayDialog;

class OperatorActions : public QObject
{
    Q_OBJECT
public:
    using Clock = std::function<qint64()>;

    OperatorActions(const DatabaseUrl &url, QTableView *view, EventListModel *model, bool readOnly,
        Clock clock, QWidget *window);
    ~OperatorActions() override; // stops a running replay or export and waits for its thread

    // Another library's table: replays run the profile's statement (no budget reset, spread or
    // replay log), or, for a read-only profile, are disabled with its explanation as tooltip.
    void setProfile(const OutboxProfile &profile);
    // Why replay is disabled by the schema (the profile's explanation); empty when it is not.
    QString replayUnavailableReason() const;
    // What the database's grants allow the connected role (GrantsMonitor): replay is disabled,
    // its tooltip naming the missing privilege, when they refuse it.
    void setGrants(const TableGrants &grants);
    // Whether a replay may start now (not read-only, possible on the schema, none running),
    // and, when it may not because of the connection or the schema, why.
    bool canReplay() const;
    QString replayRefusal() const;

    QAction *replaySelectedAction() const { return m_replaySelected; }
    QAction *replayMatchingAction() const { return m_replayMatching; }
    QAction *exportEventsAction() const { return m_exportEvents; }
    QAction *exportAuditAction() const { return m_exportAudit; }
    bool isBusy() const; // a replay or a count runs
    bool isExporting() const { return m_export != nullptr; }
    CsvExportJob *exportJob() const { return m_export.get(); }
    // The status bar's parts for a replay and an export: progress and Cancel, then the outcome.
    JobStatus *replayStatus() const;
    JobStatus *exportStatus() const { return m_exportStatus; }

    // Asks for confirmation (the replay dialog, with its preview) and replays these DEAD events
    // in the background, as "Replay selected…" does for the selected rows.
    void replayEvents(const QStringList &ids);
    // Errors › Replay group…: the replay dialog for the DEAD events `ids` of the error group
    // `signature`, planned as `outboxctl replay --error-group` plans it (on-hold events left
    // out unless the operator ticks "Include on-hold events"), then that plan executed.
    void replayGroup(const QString &signature, const QStringList &ids);
    // The replay dialog for `ids` with its preview under way, not shown and not modal (the
    // dashboard's --screenshot of the dialog); deleted on close.
    ReplayDialog *previewDialog(const QStringList &ids);
    // The same for "Replay all matching…" with the table's filter (--tab replay-all-dialog).
    ReplayDialog *previewMatchingDialog();
    // Plans (ActionPlanner) and executes the plan in the background; with `bulkFilter`, every
    // DEAD event matching it but those an on-hold marker covers, unless `includeOnHold`.
    void startReplay(const ReplayRequest &request,
        const std::optional<EventFilter> &bulkFilter = {}, bool includeOnHold = false);
    // Streams the CSV on a worker, its rows counted in exportStatus() with Cancel;
    // exportFinished follows.
    // False (and nothing started) while another export runs.
    bool startExportEvents(const QString &path);
    bool startExportAudit(const QString &path);
    void cancelExport();

signals:
    void replayFinished(const ReplayResult &result);
    // A replay's events taken (replayed or skipped) of its total, after the first, at most
    // every OperatorJob::ProgressIntervalMs, and after the last. Emitted on the replay's
    // thread: a receiver on the GUI thread gets it queued.
    void replayProgressed(qint64 taken, qint64 total);
    void replayAvailabilityChanged(); // canReplay() may have changed
    // ok: every row written; otherwise `message` says why (cancelled: the partial file deleted).
    void exportFinished(bool ok, bool cancelled, qint64 rows, const QString &message);

private:
    void replaySelected();
    void replayMatching();
    // The dialog's plan once the operator confirmed it (the request's who, why, budget, spread).
    std::optional<ActionPlan> confirm(const QStringList &preview, qint64 count,
        const ReplaySelection &selection, ReplayRequest *request);
    void confirmAndRun(const QStringList &preview, qint64 count, const ReplaySelection &selection);
    void runPlan(const ActionPlan &plan, const ReplayRequest &request);
    static ReplayResult execute(
        class Replayer &replayer, const ActionPlan &plan, const ReplayRequest &request);
    TriageReader *triage(); // the replay dialog's preview reads on its thread
    QStringList deadOnScreen() const;
    void exportEvents();
    void exportAudit();
    bool startExport(const struct CsvExportTask &task);
    void exportDone(bool ok, bool cancelled, qint64 rows, const QString &error);
    // Runs `work` with a Replayer on the runner's thread; `done` follows on the GUI thread
    // with the error, if any. With `progress`, the replay shows in replayStatus().
    // `work` also gets the job's connection and profile (the notes of a bulk selection).
    using Work = std::function<void(
        class Replayer &, const QSqlDatabase &, const OutboxProfile *, QString *)>;
    void inBackground(Work work, std::function<void(const QString &)> done,
        const OperatorRunner::ProgressText &progress = {});
    void replayDone(ReplayResult result, const QString &error);
    void report(const ReplayResult &result);
    void updateEnabled();
    static QString replaySelectedTip(); // while replay is possible
    static QString replayMatchingTip();

    DatabaseUrl m_url;
    QTableView *m_view = nullptr;
    EventListModel *m_model = nullptr;
    bool m_readOnly = false;
    std::optional<OutboxProfile> m_profile; // only for another schema than the native one
    TableGrants m_grants; // unknown until read: nothing refused by them
    Clock m_clock;
    QWidget *m_window = nullptr;
    QAction *m_replaySelected = nullptr;
    QAction *m_replayMatching = nullptr;
    QAction *m_exportEvents = nullptr;
    QAction *m_exportAudit = nullptr;
    bool m_interactive = false;
    bool m_interactiveExport = false;
    OperatorRunner *m_runner = nullptr; // the replay or count in progress, on its thread
    std::unique_ptr<CsvExportJob> m_export;
    JobStatus *m_exportStatus = nullptr;
    TriageReader *m_triage = nullptr; // made on the first confirmation
};
