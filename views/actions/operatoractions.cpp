#include "operatoractions.h"

#include "actionplan.h"
#include "csvexport.h"
#include "csvexportjob.h"
#include "eventlistmodel.h"
#include "jobstatus.h"
#include "notesaccess.h"
#include "operatorrunner.h"
#include "plainmessage.h"
#include "plaintext.h"
#include "redaction.h"
#include "replaydialog.h"
#include "replayer.h"
#include "triagereader.h"

#include <QAction>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QMessageBox>
#include <QSettings>
#include <QTableView>
#include <memory>

namespace {

QStringList sensitiveKeys()
{
    return Redaction::sensitiveKeys(QSettings());
}

} // namespace

OperatorActions::OperatorActions(const DatabaseUrl &url, QTableView *view, EventListModel *model,
    bool readOnly, Clock clock, QWidget *window)
    : QObject(window)
    , m_url(url)
    , m_view(view)
    , m_model(model)
    , m_readOnly(readOnly)
    , m_clock(std::move(clock))
    , m_window(window)
    , m_replaySelected(new QAction(tr("Replay selected…"), this))
    , m_replayMatching(new QAction(tr("Replay all matching…"), this))
    , m_exportEvents(new QAction(tr("Export events…"), this))
    , m_exportAudit(new QAction(tr("Export replay log…"), this))
    , m_runner(new OperatorRunner(url, view, readOnly, window, this))
    , m_exportStatus(new JobStatus(window))
{
    m_runner->status()->setObjectName(QStringLiteral("replayStatus"));
    m_exportStatus->setObjectName(QStringLiteral("exportStatus"));
    connect(m_runner, &OperatorRunner::progressed, this, &OperatorActions::replayProgressed,
        Qt::DirectConnection); // passed on from the replay's thread, as the runner emits it
    connect(m_exportStatus, &JobStatus::cancelRequested, this, &OperatorActions::cancelExport);
    m_replaySelected->setObjectName(QStringLiteral("replaySelectedAction"));
    m_replaySelected->setToolTip(replaySelectedTip());
    m_replaySelected->setShortcut(tr("Ctrl+Shift+R"));
    m_replayMatching->setObjectName(QStringLiteral("replayMatchingAction"));
    m_replayMatching->setToolTip(replayMatchingTip());
    m_exportEvents->setToolTip(
        tr("Every event matching the filter, as CSV with payloads redacted"));
    connect(m_replaySelected, &QAction::triggered, this, &OperatorActions::replaySelected);
    connect(m_replayMatching, &QAction::triggered, this, &OperatorActions::replayMatching);
    connect(m_exportEvents, &QAction::triggered, this, &OperatorActions::exportEvents);
    connect(m_exportAudit, &QAction::triggered, this, &OperatorActions::exportAudit);
    connect(m_runner, &OperatorRunner::runningChanged, this, &OperatorActions::updateEnabled);
    connect(m_runner, &OperatorRunner::selectionChanged, this, &OperatorActions::updateEnabled);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_view->addAction(m_replaySelected);
    m_view->addAction(m_replayMatching);
    m_view->addAction(m_exportEvents);
    updateEnabled();
}

OperatorActions::~OperatorActions()
{
    m_export.reset(); // cancels between two rows and waits; the partial file is deleted
    delete m_runner; // stops a replay between two events, each committed or never begun
}

JobStatus *OperatorActions::replayStatus() const
{
    return m_runner->status();
}

bool OperatorActions::isBusy() const
{
    return m_runner->isRunning();
}

void OperatorActions::setProfile(const OutboxProfile &profile)
{
    if (profile.isNative())
        m_profile.reset();
    else
        m_profile = profile;
    m_runner->setProfile(m_profile);
    m_exportAudit->setEnabled(!m_profile);
    if (m_profile)
        m_exportAudit->setToolTip(
            tr("Not available for %1: the schema keeps no replay log").arg(profile.name()));
    updateEnabled();
}

QString OperatorActions::replaySelectedTip()
{
    return tr("Replay the selected DEAD events with the same event IDs");
}

QString OperatorActions::replayMatchingTip()
{
    return tr("Replay every DEAD event matching the filter, not only the rows on screen");
}

QString OperatorActions::replayUnavailableReason() const
{
    if (!m_profile || m_profile->replayKind() != OutboxProfile::ReplayKind::Unavailable)
        return {};
    return tr("Replay is not possible from the database with %1: %2")
        .arg(m_profile->name(), m_profile->replayUnavailableReason());
}

void OperatorActions::setGrants(const TableGrants &grants)
{
    m_grants = grants;
    updateEnabled();
}

QString OperatorActions::replayRefusal() const
{
    if (m_readOnly)
        return tr("Read-only: the connection cannot change the outbox");
    // Through a profile its replay statement writes tables of its own choosing.
    const QString denied = m_profile ? QString() : m_grants.refusal(TableGrants::Operation::Replay);
    return denied.isEmpty() ? replayUnavailableReason() : denied;
}

bool OperatorActions::canReplay() const
{
    return !isBusy() && replayRefusal().isEmpty();
}

void OperatorActions::updateEnabled()
{
    const bool mutate = canReplay();
    m_replaySelected->setEnabled(mutate && m_runner->selectionHas(QStringLiteral("DEAD")));
    m_replayMatching->setEnabled(mutate);
    m_exportEvents->setEnabled(!m_export);
    m_exportAudit->setEnabled(!m_export && !m_profile);
    const QString why = replayRefusal();
    if (!why.isEmpty()) {
        m_replaySelected->setToolTip(why);
        m_replayMatching->setToolTip(why);
    } else {
        m_replaySelected->setToolTip(replaySelectedTip());
        m_replayMatching->setToolTip(replayMatchingTip());
    }
    emit replayAvailabilityChanged();
}

TriageReader *OperatorActions::triage()
{
    if (!m_triage) {
        m_triage = new TriageReader(m_url, this); // read-only: a preview changes nothing
        if (m_profile)
            m_triage->setProfile(*m_profile);
    }
    return m_triage;
}

std::optional<ActionPlan> OperatorActions::confirm(const QStringList &preview, qint64 count,
    const ReplaySelection &selection, ReplayRequest *request)
{
    ReplayDialog dialog(preview, count, m_window);
    if (m_profile)
        dialog.setStatementReplay(m_profile->name(), NotesAccess::auditWhere());
    dialog.showPreview(triage(), selection, m_clock);
    if (dialog.exec() != QDialog::Accepted || !dialog.plan())
        return std::nullopt;
    request->operatorName = dialog.operatorName();
    request->reason = dialog.reason();
    request->resetBudget = dialog.resetBudget();
    request->spreadMs = dialog.spreadMs();
    return dialog.plan();
}

ReplayDialog *OperatorActions::previewDialog(const QStringList &ids)
{
    auto *dialog = new ReplayDialog(ids, ids.size(), m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (m_profile)
        dialog->setStatementReplay(m_profile->name(), NotesAccess::auditWhere());
    dialog->showPreview(triage(), {ids, std::nullopt}, m_clock);
    return dialog;
}

// Some of the DEAD rows loaded in the table: what the bulk dialog lists.
QStringList OperatorActions::deadOnScreen() const
{
    QStringList ids;
    for (int row = 0; row < m_model->rowCount() && ids.size() < 50; ++row) {
        if (m_model->index(row, 0).data(EventListModel::StatusRole).toString()
            == QLatin1String("DEAD"))
            ids << m_model->eventIdAt(row);
    }
    return ids;
}

ReplayDialog *OperatorActions::previewMatchingDialog()
{
    const QStringList ids = deadOnScreen();
    auto *dialog = new ReplayDialog(ids, ids.size(), m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (m_profile)
        dialog->setStatementReplay(m_profile->name(), NotesAccess::auditWhere());
    dialog->showPreview(triage(), {{}, m_model->filter()}, m_clock);
    return dialog;
}

void OperatorActions::replaySelected()
{
    const QStringList ids = m_runner->selectedDeadIds();
    if (ids.isEmpty()) {
        PlainMessage::information(
            m_window, tr("Replay"), tr("Select one or more DEAD events first."));
        return;
    }
    replayEvents(ids);
}

void OperatorActions::replayEvents(const QStringList &ids)
{
    confirmAndRun(ids, ids.size(), {ids, std::nullopt});
}

void OperatorActions::replayGroup(const QString &signature, const QStringList &ids)
{
    ReplaySelection selection;
    selection.errorGroup = signature;
    confirmAndRun(ids, ids.size(), selection);
}

void OperatorActions::confirmAndRun(
    const QStringList &preview, qint64 count, const ReplaySelection &selection)
{
    if (!canReplay()) // read-only, the schema cannot, or a replay runs: the caller says why
        return;
    ReplayRequest request;
    const std::optional<ActionPlan> plan = confirm(preview, count, selection, &request);
    if (!plan)
        return;
    m_interactive = true;
    runPlan(*plan, request);
}

void OperatorActions::replayMatching()
{
    if (isBusy())
        return;
    const EventFilter filter = m_model->filter();
    auto count = std::make_shared<qint64>(0);
    m_replayMatching->setText(tr("Counting matching DEAD events…"));
    // Counting every match is an aggregate: on the replay thread, not the GUI thread.
    inBackground([filter, count, now = m_clock()](Replayer &replayer, const QSqlDatabase &,
                     const OutboxProfile *,
                     QString *error) { *count = replayer.countMatchingDead(filter, now, error); },
        [this, filter, count](const QString &error) {
            m_replayMatching->setText(tr("Replay all matching…"));
            if (!error.isEmpty() || *count == 0) {
                PlainMessage::information(m_window, tr("Replay"),
                    error.isEmpty() ? tr("No DEAD event matches the filter.") : error);
                return;
            }
            confirmAndRun(deadOnScreen(), *count, {{}, filter});
        });
}

void OperatorActions::startReplay(
    const ReplayRequest &request, const std::optional<EventFilter> &bulkFilter, bool includeOnHold)
{
    if (isBusy())
        return;
    ReplayRequest job = request;
    job.now = m_clock();
    ReplaySelection selection {request.eventIds, bulkFilter};
    selection.includeOnHold = includeOnHold;
    auto result = std::make_shared<ReplayResult>();
    // Planned, then the plan executed, on the replay's thread: the dialog's path without it.
    inBackground(
        [job, selection, result](Replayer &replayer, const QSqlDatabase &db,
            const OutboxProfile *profile, QString *error) {
            const auto plan = ActionPlanner(db, profile).planReplay(selection, job, error);
            if (plan)
                *result = execute(replayer, *plan, job);
        },
        [this, result](const QString &error) { replayDone(*result, error); },
        {tr("Replaying…"), tr("Replaying %1 of %2")});
}

void OperatorActions::runPlan(const ActionPlan &plan, const ReplayRequest &request)
{
    if (isBusy())
        return;
    ReplayRequest job = request;
    job.now = m_clock();
    auto result = std::make_shared<ReplayResult>();
    // One event per transaction can mean thousands of round trips: never on the GUI thread.
    inBackground([plan, job, result](Replayer &replayer, const QSqlDatabase &,
                     const OutboxProfile *, QString *) { *result = execute(replayer, plan, job); },
        [this, result](const QString &error) { replayDone(*result, error); },
        {tr("Replaying…"), tr("Replaying %1 of %2")});
}

// The plan's targets, each still guarded by its own transaction; its left-out skips reported
// with the job's. A refused plan changes nothing.
ReplayResult OperatorActions::execute(
    Replayer &replayer, const ActionPlan &plan, const ReplayRequest &request)
{
    if (!plan.refusal.isEmpty()) {
        ReplayResult refused;
        refused.error = plan.refusal;
        return refused;
    }
    return ActionPlanner::withPlanSkips(
        plan, replayer.replay(ActionPlanner::execution(plan, request)));
}

void OperatorActions::replayDone(ReplayResult result, const QString &error)
{
    if (!error.isEmpty())
        result.error = error;
    m_runner->finish({result.replayed, result.skipped, result.error, result.total, result.cancelled,
                         result.unknown},
        tr("Replay"), tr("Replayed %1 of %2"));
    if (std::exchange(m_interactive, false))
        report(result);
    emit replayFinished(result);
}

void OperatorActions::inBackground(Work work, std::function<void(const QString &)> done,
    const OperatorRunner::ProgressText &progress)
{
    m_runner->start(
        QStringLiteral("outbox-replay"),
        [work, report = m_runner->progress()](const QSqlDatabase &db,
            const std::optional<OutboxProfile> &profile, const std::atomic_bool *stop,
            QString *error) {
            Replayer replayer = profile ? Replayer(db, *profile) : Replayer(db);
            if (profile)
                replayer.setAudit(NotesAccess::audit(db, *profile));
            replayer.setStopFlag(stop);
            replayer.setProgress(report);
            work(replayer, db, profile ? &*profile : nullptr, error);
        },
        done, progress);
}

void OperatorActions::report(const ReplayResult &result)
{
    const auto done = int(result.replayed.size());
    OperatorOutcome outcome {result.replayed, result.skipped, result.error};
    outcome.unknown = result.unknown;
    QString doneText = tr("Replayed %n event(s).", nullptr, done);
    if (!result.notReleased.isEmpty())
        doneText += u'\n'
            + tr("Not released by this profile's replay statement (still DEAD after it ran: its "
                 "WHERE leaves their state out): %1")
                  .arg(PlainText::escaped(result.notReleased.mid(0, 20).join(u", "_qs)));
    m_runner->report(outcome,
        {tr("Replay"), tr("Replay stopped: %1\nReplayed before that: %2"), doneText,
            tr("Skipped %n, already replayed by someone else or no longer DEAD: %1", nullptr,
                int(result.skipped.size()))});
}

bool OperatorActions::startExportEvents(const QString &path)
{
    CsvExportTask task;
    task.kind = CsvExportTask::Kind::Events;
    task.url = m_url;
    task.profile = m_profile;
    task.filter = m_model->filter();
    task.now = m_clock();
    task.sensitiveKeys = sensitiveKeys();
    task.path = path;
    return startExport(task);
}

bool OperatorActions::startExportAudit(const QString &path)
{
    if (m_profile)
        return false; // another schema keeps no replay log
    CsvExportTask task;
    task.kind = CsvExportTask::Kind::ReplayLog;
    task.url = m_url;
    task.path = path;
    return startExport(task);
}

bool OperatorActions::startExport(const CsvExportTask &task)
{
    if (m_export)
        return false;
    m_export = std::make_unique<CsvExportJob>(task);
    // The total is not counted first (that would be a second scan): rows written and the rate.
    const QString name = QFileInfo(task.path).fileName();
    m_exportStatus->begin(tr("Exporting to %1…").arg(name));
    connect(m_export.get(), &CsvExportJob::progressed, m_exportStatus, [this, name](qint64 rows) {
        m_exportStatus->setProgress(
            rows, 0, tr("Exporting to %1: %2 rows written").arg(name, QLocale().toString(rows)));
    });
    connect(m_export.get(), &CsvExportJob::finished, this, &OperatorActions::exportDone);
    updateEnabled();
    m_export->start();
    return true;
}

void OperatorActions::cancelExport()
{
    if (m_export)
        m_export->cancel();
}

void OperatorActions::exportDone(bool ok, bool cancelled, qint64 rows, const QString &error)
{
    const QString path = m_export->task().path;
    m_export.release()->deleteLater(); // its thread has ended; called from its signal
    updateEnabled();
    QString message;
    if (ok)
        message = tr("Exported %1 rows to %2.").arg(QLocale().toString(rows), path);
    else if (cancelled)
        message = tr("Export cancelled after %1 rows; the partial file was deleted.")
                      .arg(QLocale().toString(rows));
    else
        message = tr("Export failed: %1").arg(error);
    m_exportStatus->finish(message); // beside the connection and health, never over them
    if (!ok && !cancelled && std::exchange(m_interactiveExport, false))
        PlainMessage::warning(m_window, tr("Export"), PlainText::escaped(message));
    m_interactiveExport = false;
    emit exportFinished(ok, cancelled, rows, message);
}

void OperatorActions::exportEvents()
{
    const QString path = QFileDialog::getSaveFileName(
        m_window, tr("Export events"), QStringLiteral("events.csv"), tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    m_interactiveExport = startExportEvents(path);
}

void OperatorActions::exportAudit()
{
    const QString path = QFileDialog::getSaveFileName(
        m_window, tr("Export replay log"), QStringLiteral("replay-log.csv"), tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    m_interactiveExport = startExportAudit(path);
}
