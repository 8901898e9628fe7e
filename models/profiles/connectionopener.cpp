#include "connectionopener.h"

#include "dbconnection.h"
#include "profileconnection.h"
#include "schema.h"

#include <QThread>
#include <memory>

ConnectionOpener::ConnectionOpener(QObject *parent)
    : QObject(parent)
{ }

ConnectionOpener::~ConnectionOpener()
{
    for (QThread *thread : std::as_const(m_threads)) {
        thread->wait();
        delete thread;
    }
}

std::optional<OpenedDatabase> ConnectionOpener::open(const QString &urlText, bool readOnly,
    const std::optional<QString> &profileArgument, QString *error)
{
    const DatabaseUrl url = DatabaseUrl::parse(urlText, error);
    if (!url.isValid())
        return std::nullopt;
    OpenOptions options;
    options.readOnly = readOnly;
    OpenedDatabase opened;
    const auto connection
        = ProfileConnection::open(url, options, profileArgument, &opened.profile, error);
    if (!connection)
        return std::nullopt;
    opened.url = url;
    opened.readOnly = readOnly;
    opened.markedForSimulation = Schema::isMarkedForSimulation(connection->database());
    return opened;
}

void ConnectionOpener::start(
    const QString &urlText, bool readOnly, const std::optional<QString> &profile)
{
    Q_ASSERT(QThread::currentThread() == thread());
    const quint64 generation = ++m_generation;
    auto result = std::make_shared<std::optional<OpenedDatabase>>();
    auto error = std::make_shared<QString>();
    QThread *worker = QThread::create([urlText, readOnly, profile, result, error] {
        *result = open(urlText, readOnly, profile, error.get());
    });
    worker->setObjectName(QStringLiteral("outbox-connect"));
    m_threads.append(worker);
    ++m_running;
    connect(worker, &QThread::finished, this, [this, worker, generation, result, error] {
        m_threads.removeOne(worker);
        worker->deleteLater();
        --m_running;
        if (generation != m_generation)
            return; // superseded or cancelled
        if (*result)
            emit opened(**result);
        else
            emit failed(*error);
    });
    worker->start();
}
