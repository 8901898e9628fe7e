#include "statechangeactions.h"

#include "jobstatus.h"
#include "operatordialog.h"
#include "plainmessage.h"
#include "schema.h"

#include <QAction>

StateChangeActions::StateChangeActions(Spec spec, const DatabaseUrl &url, QTableView *view,
    bool readOnly, Clock clock, QWidget *window)
    : QObject(window)
    , m_spec(std::move(spec))
    , m_readOnly(readOnly)
    , m_clock(std::move(clock))
    , m_window(window)
    , m_selected(new QAction(m_spec.action, this))
    , m_runner(new OperatorRunner(url, view, readOnly, window, this))
{
    m_selected->setObjectName(m_spec.name + QStringLiteral("SelectedAction"));
    m_runner->status()->setObjectName(m_spec.name + QStringLiteral("Status"));
    connect(m_runner, &OperatorRunner::progressed, this, &StateChangeActions::progressed,
        Qt::DirectConnection); // passed on from the change's thread, as the runner emits it
    if (!m_spec.shortcut.isEmpty())
        m_selected->setShortcut(m_spec.shortcut);
    connect(m_selected, &QAction::triggered, this, &StateChangeActions::startSelected);
    connect(m_runner, &OperatorRunner::runningChanged, this, &StateChangeActions::updateEnabled);
    connect(m_runner, &OperatorRunner::selectionChanged, this, &StateChangeActions::updateEnabled);
    updateEnabled();
}

StateChangeActions::~StateChangeActions()
{
    delete m_runner; // stops between two events, each committed or never begun, and waits
}

JobStatus *StateChangeActions::status() const
{
    return m_runner->status();
}

bool StateChangeActions::isBusy() const
{
    return m_runner->isRunning();
}

void StateChangeActions::setProfile(const OutboxProfile &profile)
{
    if (profile.isNative())
        m_profile.reset();
    else
        m_profile = profile;
    m_runner->setProfile(m_profile);
    updateEnabled();
}

void StateChangeActions::setSchemaVersion(int version)
{
    if (version == m_schemaVersion)
        return;
    m_schemaVersion = version;
    updateEnabled();
}

void StateChangeActions::setGrants(const TableGrants &grants)
{
    m_grants = grants;
    updateEnabled();
}

QString StateChangeActions::refusal() const
{
    if (m_readOnly)
        return tr("Read-only: the connection cannot change the outbox");
    if (m_profile)
        return m_spec.profileRefusal(*m_profile);
    if (const QString denied = m_grants.refusal(m_spec.grants); !denied.isEmpty())
        return denied;
    if (m_schemaVersion == 0)
        return tr("Waiting for the first snapshot to know the schema's version");
    const QString outdated = Schema::outdatedMessage(m_schemaVersion, Schema::ResolveVersion);
    return outdated.isEmpty() ? QString() : m_spec.newerSchema.arg(outdated);
}

void StateChangeActions::updateEnabled()
{
    const QString why = refusal();
    m_selected->setEnabled(
        why.isEmpty() && !isBusy() && m_runner->selectionHas(m_spec.change->from));
    emit availabilityChanged();
    m_selected->setToolTip(why.isEmpty() ? m_spec.tip : PlainMessage::toolTip(why));
}

void StateChangeActions::startSelected()
{
    const QStringList ids = m_runner->selectedIdsIn(m_spec.change->from);
    if (ids.isEmpty()) {
        PlainMessage::information(
            m_window, m_spec.report(OperatorOutcome {}).title, m_spec.selectFirst);
        return;
    }
    askAndStart(ids);
}

void StateChangeActions::askAndStart(const QStringList &ids)
{
    if (ids.isEmpty() || !refusal().isEmpty() || isBusy())
        return; // the action is disabled then; a shortcut pressed at that moment does nothing
    const std::unique_ptr<OperatorDialog> dialog = m_spec.dialog(ids, m_window);
    if (dialog->exec() != QDialog::Accepted)
        return;
    OperatorRequest request;
    request.eventIds = ids;
    request.operatorName = dialog->operatorName();
    request.reason = dialog->reason();
    m_interactive = true;
    start(request);
}

void StateChangeActions::start(const OperatorRequest &request)
{
    if (isBusy())
        return;
    OperatorRequest job = request;
    job.now = m_clock();
    auto outcome = std::make_shared<OperatorOutcome>();
    // One event per transaction: never on the GUI thread.
    m_runner->start(
        QStringLiteral("outbox-") + m_spec.name,
        [job, outcome, change = m_spec.change, readOnly = m_readOnly,
            report = m_runner->progress()](const QSqlDatabase &db,
            const std::optional<OutboxProfile> &profile, const std::atomic_bool *stop, QString *) {
            StateChange changer(*change, db, profile, readOnly);
            changer.setStopFlag(stop);
            changer.setProgress(report);
            *outcome = changer.run(job);
        },
        [this, outcome](const QString &error) {
            if (!error.isEmpty())
                outcome->error = error;
            const OperatorRunner::ReportText text = m_spec.report(*outcome);
            m_runner->finish(*outcome, text.title, m_spec.did);
            if (std::exchange(m_interactive, false))
                m_runner->report({outcome->done, outcome->skipped, outcome->error}, text);
            emit finished(*outcome);
        },
        m_spec.progress);
}
