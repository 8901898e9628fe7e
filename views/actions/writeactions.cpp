#include "writeactions.h"

#include "schema.h"

#include <QWidget>

WriteActions::WriteActions(Guards guards, const DatabaseUrl &url, QTableView *view, bool readOnly,
    Clock clock, QWidget *window)
    : QObject(window)
    , m_guards(guards)
    , m_readOnly(readOnly)
    , m_clock(std::move(clock))
    , m_window(window)
    , m_runner(new OperatorRunner(url, view, readOnly, window, this))
{
    // Virtual from here on: the signals come only once the subclass is constructed.
    connect(m_runner, &OperatorRunner::runningChanged, this, [this] { updateEnabled(); });
    connect(m_runner, &OperatorRunner::selectionChanged, this, [this] { updateEnabled(); });
}

WriteActions::~WriteActions()
{
    delete m_runner; // stops between two events, each committed or never begun, and waits
}

JobStatus *WriteActions::status() const
{
    return m_runner->status();
}

bool WriteActions::isBusy() const
{
    return m_runner->isRunning();
}

void WriteActions::setProfile(const OutboxProfile &profile)
{
    if (profile.isNative())
        m_profile.reset();
    else
        m_profile = profile;
    m_runner->setProfile(m_profile);
    updateEnabled();
}

void WriteActions::setSchemaVersion(int version)
{
    if (version == m_schemaVersion)
        return;
    m_schemaVersion = version;
    updateEnabled();
}

void WriteActions::setGrants(const TableGrants &grants)
{
    m_grants = grants;
    updateEnabled();
}

QString WriteActions::refusal() const
{
    return shellRefusal();
}

QString WriteActions::shellRefusal() const
{
    return shellRefusal(m_guards.grants);
}

QString WriteActions::shellRefusal(TableGrants::Operation operation) const
{
    if (m_readOnly)
        return tr("Read-only: the connection cannot change the outbox");
    if (m_profile)
        return profileRefusal(*m_profile);
    if (const QString denied = m_grants.refusal(operation); !denied.isEmpty())
        return denied;
    if (m_schemaVersion == 0)
        return tr("Waiting for the first snapshot to know the schema's version");
    const QString outdated = Schema::outdatedMessage(m_schemaVersion, m_guards.neededVersion);
    return outdated.isEmpty() ? QString() : newerSchema(outdated);
}
