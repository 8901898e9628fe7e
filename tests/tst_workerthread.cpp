// The one helper every worker thread uses (WorkerThread, RequestIds): the worker runs on its
// own thread, only the newest answer is taken, and tearing it down with a job in flight waits
// for that job, deletes the worker on its own thread and delivers none of its answers.
#include "requestids.h"
#include "testmain.h"
#include "workerthread.h"

#include <QSemaphore>
#include <atomic>
#include <memory>

namespace {

// What the test sees of the worker from the outside, safe from both threads.
struct Probe
{
    QSemaphore running; // released when a held job starts
    QSemaphore gate; // a held job waits for it, at most HoldMs
    std::atomic<QThread *> ranOn = nullptr;
    std::atomic<QThread *> deletedOn = nullptr;
    std::atomic<bool> jobFinished = false;
};

constexpr int HoldMs = 300; // a held job's bound, like a statement timeout

} // namespace

class EchoWorker : public QObject
{
    Q_OBJECT
public:
    explicit EchoWorker(Probe *probe)
        : m_probe(probe)
    { }
    ~EchoWorker() override { m_probe->deletedOn = QThread::currentThread(); }

    // Answers `value` for request `id`; a held job first waits for the gate.
    void echo(quint64 id, int value, bool hold)
    {
        Q_ASSERT(QThread::currentThread() == thread());
        m_probe->ranOn = QThread::currentThread();
        if (hold) {
            m_probe->running.release();
            m_probe->gate.tryAcquire(1, HoldMs);
        }
        m_probe->jobFinished = true;
        emit answered(id, value);
    }

signals:
    void answered(quint64 id, int value);

private:
    Probe *m_probe;
};

class TestWorkerThread : public QObject
{
    Q_OBJECT
private slots:
    void acceptNewest_data();
    void acceptNewest();
    void acceptNewer();
    void workerRunsOnItsOwnThread();
    void slowAnswerIsDropped();
    void teardownWithJobInFlight();
    void adoptedWorkerSharesTheThread();
};

void TestWorkerThread::acceptNewest_data()
{
    QTest::addColumn<int>("issued");
    QTest::addColumn<QList<quint64>>("answers");
    QTest::addColumn<QList<bool>>("taken");
    QTest::addColumn<bool>("busy");
    QTest::addRow("the newest answer is taken")
        << 1 << QList<quint64> {1} << QList<bool> {true} << false;
    QTest::addRow("an answer superseded meanwhile is dropped")
        << 2 << QList<quint64> {1, 2} << QList<bool> {false, true} << false;
    QTest::addRow("an older answer alone leaves the newest busy")
        << 2 << QList<quint64> {1} << QList<bool> {false} << true;
    QTest::addRow("an id never issued is dropped")
        << 1 << QList<quint64> {0, 2} << QList<bool> {false, false} << true;
}

void TestWorkerThread::acceptNewest()
{
    QFETCH(int, issued);
    QFETCH(QList<quint64>, answers);
    QFETCH(QList<bool>, taken);
    QFETCH(bool, busy);
    RequestIds ids;
    for (int i = 0; i < issued; ++i)
        QCOMPARE(ids.next(), quint64(i + 1));
    QVERIFY(ids.isBusy());
    for (int i = 0; i < answers.size(); ++i)
        QCOMPARE(ids.acceptNewest(answers.at(i)), taken.at(i));
    QCOMPARE(ids.isBusy(), busy);
    QVERIFY(ids.isNewest(quint64(issued)));
}

// The snapshot's rule: an answer older than one taken is dropped, an older one still shows
// until then.
void TestWorkerThread::acceptNewer()
{
    RequestIds ids;
    ids.next();
    ids.next();
    ids.next();
    QVERIFY(ids.acceptNewer(2));
    QVERIFY(ids.isBusy());
    QVERIFY(!ids.acceptNewer(1));
    QVERIFY(!ids.acceptNewer(2));
    QVERIFY(!ids.acceptNewer(4));
    QVERIFY(ids.acceptNewer(3));
    QVERIFY(!ids.isBusy());
}

void TestWorkerThread::workerRunsOnItsOwnThread()
{
    Probe probe;
    WorkerThread<EchoWorker> worker(u"test-echo"_qs, new EchoWorker(&probe));
    QList<int> values;
    connect(worker.worker(), &EchoWorker::answered, this,
        [&values](quint64, int value) { values << value; });
    worker.start();
    worker.post([](EchoWorker *echo) { echo->echo(1, 7, false); });
    QTRY_COMPARE(values, QList<int> {7});
    QVERIFY(probe.ranOn.load() == worker.thread());
    QCOMPARE(worker.thread()->objectName(), u"test-echo"_qs);
    QVERIFY(probe.ranOn.load() != QThread::currentThread());
    worker.stop();
    QVERIFY(!worker.worker()); // deleted as its thread ended
    QVERIFY(probe.deletedOn.load() == worker.thread());
    worker.post([](EchoWorker *echo) { echo->echo(2, 8, false); }); // nothing: it is gone
}

// Request 1 is slow; request 2, sent meanwhile, answers after it: only 2 is taken.
void TestWorkerThread::slowAnswerIsDropped()
{
    Probe probe;
    WorkerThread<EchoWorker> worker(u"test-echo"_qs, new EchoWorker(&probe));
    RequestIds ids;
    QList<int> taken;
    int received = 0;
    connect(worker.worker(), &EchoWorker::answered, this, [&](quint64 id, int value) {
        ++received;
        if (ids.acceptNewest(id))
            taken << value;
    });
    worker.start();
    const quint64 first = ids.next();
    worker.post([first](EchoWorker *echo) { echo->echo(first, 10, true); });
    QVERIFY(probe.running.tryAcquire(1, 5000));
    const quint64 second = ids.next();
    worker.post([second](EchoWorker *echo) { echo->echo(second, 20, false); });
    probe.gate.release();
    QTRY_COMPARE(received, 2);
    QCOMPARE(taken, QList<int> {20});
    QVERIFY(!ids.isBusy());
}

// Destroyed while a job runs, as an owner's destructor stops its worker: stop() waits for the
// job, the worker is deleted on its own thread, and the answer the job sent meanwhile is never
// delivered once the owner is gone.
void TestWorkerThread::teardownWithJobInFlight()
{
    Probe probe;
    int received = 0;
    auto owner = std::make_unique<QObject>();
    auto worker
        = std::make_unique<WorkerThread<EchoWorker>>(u"test-echo"_qs, new EchoWorker(&probe));
    QThread *thread = worker->thread();
    connect(worker->worker(), &EchoWorker::answered, owner.get(), [&received] { ++received; });
    worker->start();
    worker->post([](EchoWorker *echo) { echo->echo(1, 10, true); });
    worker->post([](EchoWorker *echo) { echo->echo(2, 20, false); });
    QVERIFY(probe.running.tryAcquire(1, 5000));
    worker.reset();
    QVERIFY(probe.jobFinished.load());
    QVERIFY(probe.deletedOn.load() == thread);
    owner.reset();
    QCoreApplication::processEvents();
    QCOMPARE(received, 0);
}

void TestWorkerThread::adoptedWorkerSharesTheThread()
{
    Probe first;
    Probe second;
    WorkerThread<EchoWorker> worker(u"test-echo"_qs, new EchoWorker(&first));
    QPointer<EchoWorker> adopted = new EchoWorker(&second);
    WorkerThreadBase::adopt(worker.thread(), adopted);
    worker.start();
    int answers = 0;
    connect(adopted, &EchoWorker::answered, this, [&answers] { ++answers; });
    postToWorker(adopted.data(), [](EchoWorker *echo) { echo->echo(1, 1, false); });
    QTRY_COMPARE(answers, 1);
    QVERIFY(second.ranOn.load() == worker.thread());
    worker.stop();
    QVERIFY(!adopted);
    QVERIFY(second.deletedOn.load() == worker.thread());
}

OUTBOX_TEST_MAIN(TestWorkerThread, QCoreApplication)

#include "tst_workerthread.moc"
