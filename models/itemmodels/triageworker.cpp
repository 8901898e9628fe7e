#include "triageworker.h"

#include "notesaccess.h"

#include <QThread>

TriageWorker::TriageWorker(const DatabaseUrl &url, const OpenOptions &options, QObject *parent)
    : QObject(parent)
    , m_connection(url, options)
{ }

// Runs on the worker thread, where the connection was opened.
TriageWorker::~TriageWorker() = default;

void TriageWorker::setProfile(const OutboxProfile &profile)
{
    if (profile.isNative())
        m_profile.reset();
    else
        m_profile = profile;
}

bool TriageWorker::withDatabase(
    const std::function<bool(const QSqlDatabase &, QString *)> &read, QString *error)
{
    Q_ASSERT(QThread::currentThread() == thread());
    DbConnection *connection = m_connection.get(error);
    const bool ok = connection && read(connection->database(), error);
    if (!ok) {
        if (error->isEmpty())
            *error = tr("the database did not answer");
        m_connection.drop(); // reopen on the next request: the server may have gone away
    }
    return ok;
}

void TriageWorker::readErrorGroups(quint64 requestId)
{
    QList<ErrorGroup> groups;
    QString error;
    withDatabase(
        [this, &groups](const QSqlDatabase &db, QString *why) {
            const auto read = ErrorGroups::read(db, profile(), why);
            if (read) {
                groups = *read;
                ErrorGroups::addNotes(db, profile(), &groups);
            }
            return read.has_value();
        },
        &error);
    emit errorGroupsReady(requestId, groups, error);
}

void TriageWorker::readDeadEventIds(quint64 requestId, const QString &signature)
{
    QStringList ids;
    QString error;
    withDatabase(
        [this, &ids, &signature](const QSqlDatabase &db, QString *why) {
            const auto read = ErrorGroups::deadEventIds(db, profile(), signature, why);
            if (read)
                ids = *read;
            return read.has_value();
        },
        &error);
    emit deadEventIdsReady(requestId, ids, error);
}

void TriageWorker::computePreview(
    quint64 requestId, const ReplaySelection &selection, const ReplayRequest &request)
{
    ActionPlan plan;
    QString error;
    withDatabase(
        [this, &plan, &selection, &request](const QSqlDatabase &db, QString *why) {
            const auto planned = ActionPlanner(db, profile()).planReplay(selection, request, why);
            if (planned)
                plan = *planned;
            return planned.has_value();
        },
        &error);
    emit previewReady(requestId, plan, error);
}
