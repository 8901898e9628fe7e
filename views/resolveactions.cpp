#include "resolveactions.h"

#include "eventlistmodel.h"
#include "plaintext.h"
#include "resolvedialog.h"
#include "resolver.h"
#include "schema.h"

#include <QAction>
#include <QItemSelectionModel>
#include <QMessageBox>
#include <QTableView>
#include <QThread>

ResolveActions::ResolveActions(
    const DatabaseUrl &url, QTableView *view, bool readOnly, Clock clock, QWidget *window)
    : QObject(window)
    , m_url(url)
    , m_view(view)
    , m_readOnly(readOnly)
    , m_clock(std::move(clock))
    , m_window(window)
    , m_resolveSelected(new QAction(tr("Resolve selected…"), this))
{
    m_resolveSelected->setObjectName(QStringLiteral("resolveSelectedAction"));
    connect(m_resolveSelected, &QAction::triggered, this, &ResolveActions::resolveSelected);
    updateEnabled();
}

ResolveActions::~ResolveActions()
{
    if (m_thread) {
        *m_stop = true; // stops between two events, each committed or never begun
        m_thread->wait();
    }
}

void ResolveActions::setProfile(const OutboxProfile &profile)
{
    if (profile.isNative())
        m_profile.reset();
    else
        m_profile = profile;
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
    m_resolveSelected->setEnabled(why.isEmpty() && !m_thread);
    emit availabilityChanged();
    m_resolveSelected->setToolTip(why.isEmpty()
            ? tr("Close the selected DEAD events without delivering them (recorded in "
                 "resolve_log)")
            : why);
}

QStringList ResolveActions::selectedDeadIds() const
{
    QStringList ids;
    for (const QModelIndex &index : m_view->selectionModel()->selectedRows()) {
        if (index.data(EventListModel::StatusRole).toString() == QLatin1String("DEAD"))
            ids << index.data(EventListModel::EventIdRole).toString();
    }
    return ids;
}

void ResolveActions::resolveSelected()
{
    const QStringList ids = selectedDeadIds();
    if (ids.isEmpty()) {
        QMessageBox::information(
            m_window, tr("Resolve"), tr("Select one or more DEAD events first."));
        return;
    }
    resolveEvents(ids);
}

void ResolveActions::resolveEvents(const QStringList &ids)
{
    if (ids.isEmpty() || !refusal().isEmpty() || m_thread)
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
    if (m_thread)
        return;
    ResolveRequest job = request;
    job.now = m_clock();
    auto result = std::make_shared<ResolveResult>();
    m_stop = std::make_shared<std::atomic_bool>(false);
    // One event per transaction: never on the GUI thread.
    m_thread.reset(QThread::create(
        [url = m_url, profile = m_profile, readOnly = m_readOnly, job, result, stop = m_stop] {
            OpenOptions options;
            options.readOnly = readOnly;
            options.validateSchema = !profile; // another schema: validated on opening
            const auto connection = DbConnection::open(url, options, &result->error);
            if (!connection)
                return;
            Resolver resolver = profile ? Resolver(connection->database(), *profile, readOnly)
                                        : Resolver(connection->database(), readOnly);
            resolver.setStopFlag(stop.get());
            *result = resolver.resolve(job);
        }));
    m_thread->setObjectName(QStringLiteral("outbox-resolve"));
    connect(m_thread.get(), &QThread::finished, this, [this, result] {
        m_thread->wait(); // `finished` comes just before the thread has fully ended
        m_thread.reset();
        updateEnabled();
        if (std::exchange(m_interactive, false))
            report(*result);
        emit resolveFinished(*result);
    });
    updateEnabled();
    m_thread->start();
}

void ResolveActions::report(const ResolveResult &result)
{
    if (!result.error.isEmpty()) {
        QMessageBox::warning(m_window, tr("Resolve"),
            tr("Resolve stopped: %1\nResolved before that: %2")
                .arg(PlainText::escaped(result.error))
                .arg(result.resolved.size()));
        return;
    }
    QString text = tr("Resolved %n event(s).", nullptr, int(result.resolved.size()));
    if (!result.skipped.isEmpty())
        text += QLatin1Char('\n')
            + tr("Skipped %n, already resolved or replayed by someone else or no longer DEAD: %1",
                nullptr, int(result.skipped.size()))
                  .arg(PlainText::escaped(result.skipped.mid(0, 20).join(QStringLiteral(", "))));
    QMessageBox::information(m_window, tr("Resolve"), text);
}
