#include "eventquerycanceller.h"

#include "sqldialect.h"
#include <QSqlQuery>
#include <QThread>
#include <QVariant>
#include <algorithm>

EventQueryCanceller::EventQueryCanceller(
    const DatabaseUrl &url, std::shared_ptr<EventQueryState> state, QObject *parent)
    : QObject(parent)
    , m_url(url)
    , m_state(std::move(state))
    , m_retry(this) // moves to the canceller's thread with it
{
    m_retry.setSingleShot(true);
    m_retry.setTimerType(Qt::PreciseTimer);
    connect(&m_retry, &QTimer::timeout, this, [this] {
        if (m_state->running.load() == m_retrying)
            cancelSuperseded();
    });
}

// Runs on the canceller's thread, where the connection was opened.
EventQueryCanceller::~EventQueryCanceller() = default;

bool EventQueryCanceller::ensureConnection()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_connection)
        return true;
    OpenOptions options;
    options.readOnly = true;
    options.validateSchema = false;
    options.statementTimeoutMs = 5000;
    m_connection = DbConnection::open(m_url, options, nullptr);
    return m_connection != nullptr;
}

void EventQueryCanceller::prepare()
{
    ensureConnection(); // failing here is fine: cancelSuperseded() tries again
}

void EventQueryCanceller::cancelSuperseded()
{
    Q_ASSERT(QThread::currentThread() == thread());
    const quint64 running = m_state->running.load();
    const int pid = m_state->backendPid.load();
    if (running == 0 || !m_state->isSuperseded(running) || pid <= 0)
        return;
    if (!ensureConnection())
        return; // the worker's own statement fails or times out; nothing piles up
    QSqlQuery query(m_connection->database());
    query.prepare(m_connection->dialect().cancelSql(QStringLiteral(":pid")));
    query.bindValue(QStringLiteral(":pid"), pid);
    if (!query.exec() || (query.isSelect() && !query.next())) {
        m_connection.reset(); // reopened at the next cancel
        return;
    }
    // pg_cancel_backend() says whether it found the backend; KILL QUERY has no row to say it.
    if (!query.isSelect() || query.value(0).toBool())
        ++m_state->cancelsSent;
    retryLater(running);
}

void EventQueryCanceller::retryLater(quint64 running)
{
    if (running != m_retrying) {
        m_retrying = running;
        m_retryMs = FirstRetryMs;
    } else {
        m_retryMs = std::min(m_retryMs * 2, LongestRetryMs);
    }
    m_retry.start(m_retryMs);
}
