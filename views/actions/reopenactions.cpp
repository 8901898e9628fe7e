#include "reopenactions.h"

#include "jobstatus.h"
#include "operatorrunner.h"
#include "reopendialog.h"
#include "reopener.h"
#include "schema.h"

#include <QAction>

namespace {

const QString Resolved = QStringLiteral("RESOLVED");

} // namespace

ReopenActions::ReopenActions(
    const DatabaseUrl &url, QTableView *view, bool readOnly, Clock clock, QWidget *window)
    : QObject(window)
    , m_readOnly(readOnly)
    , m_clock(std::move(clock))
    , m_window(window)
    , m_reopenSelected(new QAction(tr("Reopen selected…"), this))
    , m_runner(new OperatorRunner(url, view, readOnly, window, this))
{
    m_reopenSelected->setObjectName(QStringLiteral("reopenSelectedAction"));
    connect(m_reopenSelected, &QAction::triggered, this, &ReopenActions::reopenSelected);
    m_runner->status()->setObjectName(QStringLiteral("reopenStatus"));
    connect(m_runner, &OperatorRunner::runningChanged, this, &ReopenActions::updateEnabled);
    connect(m_runner, &OperatorRunner::selectionChanged, this, &ReopenActions::updateEnabled);
    updateEnabled();
}

ReopenActions::~ReopenActions()
{
    delete m_runner; // stops between two events, each committed or never begun, and waits
}

JobStatus *ReopenActions::status() const
{
    return m_runner->status();
}

bool ReopenActions::isBusy() const
{
    return m_runner->isRunning();
}

void ReopenActions::setProfile(const OutboxProfile &profile)
{
    if (profile.isNative())
        m_profile.reset();
    else
        m_profile = profile;
    m_runner->setProfile(m_profile);
    updateEnabled();
}

void ReopenActions::setSchemaVersion(int version)
{
    if (version == m_schemaVersion)
        return;
    m_schemaVersion = version;
    updateEnabled();
}

QString ReopenActions::refusal() const
{
    if (m_readOnly)
        return tr("Read-only: the connection cannot change the outbox");
    if (m_profile)
        return tr("Reopen is not available: %1").arg(Reopener::profileRefusal(*m_profile));
    if (m_schemaVersion == 0)
        return tr("Waiting for the first snapshot to know the schema's version");
    const QString outdated = Schema::outdatedMessage(m_schemaVersion);
    return outdated.isEmpty() ? QString() : tr("Reopen needs a newer schema: %1").arg(outdated);
}

void ReopenActions::updateEnabled()
{
    const QString why = refusal();
    m_reopenSelected->setEnabled(why.isEmpty() && !isBusy() && m_runner->selectionHas(Resolved));
    m_reopenSelected->setToolTip(why.isEmpty()
            ? tr("Put the selected RESOLVED events back to DEAD, to replay or resolve them again "
                 "(recorded in reopen_log)")
            : why);
}

void ReopenActions::reopenSelected()
{
    const QStringList ids = m_runner->selectedIdsIn(Resolved);
    if (ids.isEmpty() || !refusal().isEmpty() || isBusy())
        return; // the action is disabled then; a shortcut pressed at that moment does nothing
    ReopenDialog dialog(ids, ids.size(), m_window);
    if (dialog.exec() != QDialog::Accepted)
        return;
    ReopenRequest request;
    request.eventIds = ids;
    request.operatorName = dialog.operatorName();
    request.reason = dialog.reason();
    m_interactive = true;
    startReopen(request);
}

void ReopenActions::startReopen(const ReopenRequest &request)
{
    if (isBusy())
        return;
    ReopenRequest job = request;
    job.now = m_clock();
    auto result = std::make_shared<ReopenResult>();
    // One event per transaction: never on the GUI thread.
    m_runner->start(
        QStringLiteral("outbox-reopen"),
        [job, result, readOnly = m_readOnly](const QSqlDatabase &db,
            const std::optional<OutboxProfile> &profile, const std::atomic_bool *stop, QString *) {
            Reopener reopener = profile ? Reopener(db, *profile, readOnly) : Reopener(db, readOnly);
            reopener.setStopFlag(stop);
            *result = reopener.reopen(job);
        },
        [this, result](const QString &error) {
            if (!error.isEmpty())
                result->error = error;
            if (std::exchange(m_interactive, false))
                report(*result);
            emit reopenFinished(*result);
        });
}

void ReopenActions::report(const ReopenResult &result)
{
    m_runner->report({result.reopened, result.skipped, result.error},
        {tr("Reopen"), tr("Reopen stopped: %1\nReopened before that: %2"),
            tr("Reopened %n event(s): DEAD again.", nullptr, int(result.reopened.size())),
            tr("Skipped %n, already reopened by someone else or no longer RESOLVED: %1", nullptr,
                int(result.skipped.size()))});
}
