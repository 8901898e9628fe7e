// A worker object on a QThread of its own, the one pattern of every worker in models/ (hotspot's
// jobtracker.h): the owner creates the worker without a parent, connects its answers, start()s
// the thread and posts requests to it; the worker opens its own connection there on its first
// request (WorkerConnection, one layer up). On stop() (and on destruction) the thread's event
// loop ends after the call in progress (calls still queued may not run), the worker is deleted
// on its own thread (its connection closed there) and the thread is joined. An answer sent
// meanwhile is never delivered once its owner is gone; before that, RequestIds drops stale ones.
#pragma once

#include <QPointer>
#include <QString>
#include <QThread>

class WorkerThreadBase
{
public:
    WorkerThreadBase(const WorkerThreadBase &) = delete;
    WorkerThreadBase &operator=(const WorkerThreadBase &) = delete;

    // Puts `worker` (without a parent) on `thread`, someone else's worker thread: it runs after
    // what that thread's worker does, never beside it, and is deleted there when it ends.
    static void adopt(QThread *thread, QObject *worker);

    void start() { m_thread.start(); }
    // Asks the thread to end once the call in progress returns; stop() or the destructor waits.
    void quit() { m_thread.quit(); }
    void stop(); // quit() and wait for the thread to end (the call in progress first)
    bool isRunning() const { return m_thread.isRunning(); }
    QThread *thread() { return &m_thread; }

protected:
    WorkerThreadBase(const QString &name, QObject *worker);
    ~WorkerThreadBase();

private:
    QThread m_thread;
};

// Runs `call(worker)` on the worker's thread, queued behind what was posted before; nothing when
// the worker is gone (its thread ended).
template <class Worker, class Call> void postToWorker(Worker *worker, Call call)
{
    if (!worker)
        return;
    QMetaObject::invokeMethod(
        worker, [worker, call = std::move(call)] { call(worker); }, Qt::QueuedConnection);
}

template <class Worker> class WorkerThread : public WorkerThreadBase
{
public:
    // Moves `worker` (created without a parent) onto a thread named `name`; start() runs it.
    WorkerThread(const QString &name, Worker *worker)
        : WorkerThreadBase(name, worker)
        , m_worker(worker)
    { }

    // Null once the thread has ended (the worker is deleted then).
    Worker *worker() const { return m_worker.data(); }
    template <class Call> void post(Call call) const { postToWorker(worker(), std::move(call)); }

private:
    QPointer<Worker> m_worker;
};
