#include "eventqueryclient.h"

#include "eventquerycanceller.h"
#include "eventqueryworker.h"

#include <limits>

EventQueryClient::EventQueryClient(
    const DatabaseUrl &url, const OpenOptions &options, QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<EventPageRequest>();
    qRegisterMetaType<EventPageAnswer>();
    m_worker = new EventQueryWorker(url, options, m_state);
    m_worker->moveToThread(&m_workerThread);
    connect(&m_workerThread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &EventQueryWorker::answered, this, &EventQueryClient::accept);
    m_workerThread.setObjectName(u"outbox-events"_qs);
    m_workerThread.start();
    if (url.isPostgreSql()) {
        m_canceller = new EventQueryCanceller(url, m_state);
        m_canceller->moveToThread(&m_cancelThread);
        connect(&m_cancelThread, &QThread::finished, m_canceller, &QObject::deleteLater);
        m_cancelThread.setObjectName(u"outbox-events-cancel"_qs);
        m_cancelThread.start();
        QMetaObject::invokeMethod(m_canceller, &EventQueryCanceller::prepare, Qt::QueuedConnection);
    }
}

EventQueryClient::~EventQueryClient()
{
    // Nothing queued runs any more, and a statement still running is cancelled first, so the
    // wait is short (at worst one statement timeout when the server cannot be reached).
    m_state->newest = std::numeric_limits<quint64>::max();
    if (m_canceller) {
        EventQueryCanceller *canceller = m_canceller;
        QThread *thread = &m_cancelThread;
        QMetaObject::invokeMethod(
            canceller,
            [canceller, thread] {
                canceller->cancelSuperseded();
                thread->quit();
            },
            Qt::QueuedConnection);
    }
    m_workerThread.quit();
    m_workerThread.wait();
    m_cancelThread.wait();
}

quint64 EventQueryClient::submit(EventPageRequest request)
{
    Q_ASSERT(QThread::currentThread() == thread());
    request.id = ++m_lastIssued;
    const bool supersedes = m_state->running.load() != 0;
    m_state->newest = request.id;
    EventQueryWorker *worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker, request] { worker->run(request); }, Qt::QueuedConnection);
    if (supersedes && m_canceller) {
        EventQueryCanceller *canceller = m_canceller;
        QMetaObject::invokeMethod(
            canceller, [canceller] { canceller->cancelSuperseded(); }, Qt::QueuedConnection);
    }
    return request.id;
}

void EventQueryClient::accept(const EventPageAnswer &answer)
{
    if (answer.id == m_lastIssued) // older answers are stale
        emit answered(answer);
}
