#include "workerthread.h"

WorkerThreadBase::WorkerThreadBase(const QString &name, QObject *worker)
{
    m_thread.setObjectName(name);
    adopt(&m_thread, worker);
}

WorkerThreadBase::~WorkerThreadBase()
{
    stop();
}

void WorkerThreadBase::adopt(QThread *thread, QObject *worker)
{
    Q_ASSERT(!worker->parent());
    worker->moveToThread(thread);
    QObject::connect(thread, &QThread::finished, worker, &QObject::deleteLater);
}

// Bounded by the call in progress: a worker's statement ends within its statement timeout.
void WorkerThreadBase::stop()
{
    m_thread.quit();
    m_thread.wait();
}
