#include "eventqueryclient.h"

#include "eventquerycanceller.h"
#include "eventqueryworker.h"
#include "sqldialect.h"

#include <limits>

EventQueryClient::EventQueryClient(
    const DatabaseUrl &url, const OpenOptions &options, QObject *parent)
    : QObject(parent)
    , m_worker(u"outbox-events"_qs, new EventQueryWorker(url, options, m_state))
{
    qRegisterMetaType<EventPageRequest>();
    qRegisterMetaType<EventPageAnswer>();
    connect(m_worker.worker(), &EventQueryWorker::answered, this, &EventQueryClient::accept);
    m_worker.start();
    if (SqlDialect::of(url.engine()).can().serverSideCancel)
        startCanceller(url);
}

void EventQueryClient::startCanceller(const DatabaseUrl &url)
{
    m_canceller = std::make_unique<WorkerThread<EventQueryCanceller>>(
        u"outbox-events-cancel"_qs, new EventQueryCanceller(url, m_state));
    m_canceller->start();
    m_canceller->post([](EventQueryCanceller *canceller) { canceller->prepare(); });
}

EventQueryClient::~EventQueryClient()
{
    // Nothing queued runs any more, and a statement still running is cancelled first, so the
    // wait is short (at worst one statement timeout when the server cannot be reached).
    m_state->newest = std::numeric_limits<quint64>::max();
    if (m_canceller)
        m_canceller->post([](EventQueryCanceller *canceller) { canceller->cancelSuperseded(); });
    m_worker.stop();
    m_canceller.reset(); // once the worker has ended: no statement is left to cancel
}

quint64 EventQueryClient::submit(EventPageRequest request)
{
    Q_ASSERT(QThread::currentThread() == thread());
    request.id = m_requests.next();
    const bool supersedes = m_state->running.load() != 0;
    m_state->newest = request.id;
    m_worker.post([request](EventQueryWorker *worker) { worker->run(request); });
    if (supersedes && m_canceller)
        m_canceller->post([](EventQueryCanceller *canceller) { canceller->cancelSuperseded(); });
    return request.id;
}

void EventQueryClient::accept(const EventPageAnswer &answer)
{
    if (m_requests.acceptNewest(answer.id)) // older answers are stale
        emit answered(answer);
}
