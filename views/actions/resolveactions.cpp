#include "resolveactions.h"

#include "jobstatus.h"
#include "operatorrunner.h"
#include "plainmessage.h"
#include "resolvedialog.h"
#include "resolver.h"
#include "schema.h"

#include <QAction>

ResolveActions::ResolveActions(
    const DatabaseUrl &url, QTableView *view, bool readOnly, Clock clock, QWidget *window)
    : QObject(window)
    , m_readOnly(readOnly)
    , m_clock(std::move(clock))
    , m_window(window)
    , m_resolveSelected(new QAction(tr("Resolve selected…"), this))
    , m_runner(new OperatorRunner(url, view, readOnly, window, this))
{
    m_resolveSelected->setObjectName(QStringLiteral("resolveSelectedAction"));
    m_runner->status()->setObjectName(QStringLiteral("resolveStatus"));
    connect(m_runner, &OperatorRunner::progressed, this, &ResolveActions::resolveProgressed,
        Qt::DirectConnection); // passed on from the resolve's thread, as the runner emits it
    m_resolveSelected->setShortcut(tr("Ctrl+Shift+X"));
    connect(m_resolveSelected, &QAction::triggered, this, &ResolveActions::resolveSelected);
    connect(m_runner, &OperatorRunner::runningChanged, this, &ResolveActions::updateEnabled);
    connect(m_runner, &OperatorRunner::selectionChanged, this, &ResolveActions::updateEnabled);
    updateEnabled();
}

ResolveActions::~ResolveActions()
{
    delete m_runner; // stops between two events, each committed or never begun, and waits
}

JobStatus *ResolveActions::status() const
{
    return m_runner->status();
}

bool ResolveActions::isBusy() const
{
    return m_runner->isRunning();
}

void ResolveActions::setProfile(const OutboxProfile &profile)
{
    if (profile.isNative())
        m_profile.reset();
    else
        m_profile = profile;
    m_runner->setProfile(m_profile);
    updateEnabled();
}

void ResolveActions::setSchemaVersion(int version)
{
    if (version == m_schemaVersion)
        return;
    m_schemaVersion = version;
    updateEnabled();
}

QString ResolveActions::refusal() const
{
    if (m_readOnly)
        return tr("Read-only: the connection cannot change the outbox");
    if (m_profile)
        return tr("Resolve is not possible with the %1 profile: %2")
            .arg(m_profile->name(), Resolver::profileRefusal(*m_profile));
    if (m_schemaVersion == 0)
        return tr("Waiting for the first snapshot to know the schema's version");
    const QString outdated = Schema::outdatedMessage(m_schemaVersion);
    return outdated.isEmpty() ? QString() : tr("Resolve needs a newer schema: %1").arg(outdated);
}

void ResolveActions::updateEnabled()
{
    const QString why = refusal();
    m_resolveSelected->setEnabled(
        why.isEmpty() && !isBusy() && m_runner->selectionHas(QStringLiteral("DEAD")));
    emit availabilityChanged();
    m_resolveSelected->setToolTip(why.isEmpty()
            ? tr("Close the selected DEAD events without delivering them (recorded in "
                 "resolve_log)")
            : why);
}

void ResolveActions::resolveSelected()
{
    const QStringList ids = m_runner->selectedDeadIds();
    if (ids.isEmpty()) {
        PlainMessage::information(
            m_window, tr("Resolve"), tr("Select one or more DEAD events first."));
        return;
    }
    resolveEvents(ids);
}

void ResolveActions::resolveEvents(const QStringList &ids)
{
    if (ids.isEmpty() || !refusal().isEmpty() || isBusy())
        return;
    ResolveDialog dialog(ids, ids.size(), m_window);
    if (dialog.exec() != QDialog::Accepted)
        return;
    ResolveRequest request;
    request.eventIds = ids;
    request.operatorName = dialog.operatorName();
    request.reason = dialog.reason();
    m_interactive = true;
    startResolve(request);
}

void ResolveActions::startResolve(const ResolveRequest &request)
{
    if (isBusy())
        return;
    ResolveRequest job = request;
    job.now = m_clock();
    auto result = std::make_shared<ResolveResult>();
    // One event per transaction: never on the GUI thread.
    m_runner->start(
        QStringLiteral("outbox-resolve"),
        [job, result, readOnly = m_readOnly, report = m_runner->progress()](const QSqlDatabase &db,
            const std::optional<OutboxProfile> &profile, const std::atomic_bool *stop, QString *) {
            Resolver resolver = profile ? Resolver(db, *profile, readOnly) : Resolver(db, readOnly);
            resolver.setStopFlag(stop);
            resolver.setProgress(report);
            *result = resolver.resolve(job);
        },
        [this, result](const QString &error) {
            if (!error.isEmpty())
                result->error = error;
            m_runner->finish({result->resolved, result->skipped, result->error, result->total,
                                 result->cancelled},
                tr("Resolve"), tr("Resolved %1 of %2"));
            if (std::exchange(m_interactive, false))
                report(*result);
            emit resolveFinished(*result);
        },
        {tr("Resolving…"), tr("Resolving %1 of %2")});
}

void ResolveActions::report(const ResolveResult &result)
{
    m_runner->report({result.resolved, result.skipped, result.error},
        {tr("Resolve"), tr("Resolve stopped: %1\nResolved before that: %2"),
            tr("Resolved %n event(s).", nullptr, int(result.resolved.size())),
            tr("Skipped %n, already resolved or replayed by someone else or no longer DEAD: %1",
                nullptr, int(result.skipped.size()))});
}
