#include "diagnosismonitor.h"

#include "cdcfinding.h"
#include "diagnosisworker.h"
#include "healthmonitor.h"
#include "workerthread.h"

#include <QThread>
#include <algorithm>

DiagnosisMonitor::DiagnosisMonitor(
    HealthMonitor *health, const DatabaseUrl &url, const OpenOptions &options, QObject *parent)
    : QObject(parent)
    , m_health(health)
{
    qRegisterMetaType<DiagnosisResult>();
    auto *worker = new DiagnosisWorker(url, options);
    m_worker = worker;
    WorkerThreadBase::adopt(health->workerThread(), worker);
    connect(worker, &DiagnosisWorker::diagnosed, this, &DiagnosisMonitor::acceptResult);
    connect(worker, &DiagnosisWorker::failed, this, &DiagnosisMonitor::acceptFailure);
    // A quiet outbox is diagnosed again only once in HealthMonitor::QuietFollowUpMs; a change
    // is diagnosed as soon as the spacing allows, even when the snapshots after it are quiet.
    connect(health, &HealthMonitor::snapshotChanged, this, [this](const HealthSnapshot &snapshot) {
        applySlot(snapshot);
        m_undiagnosed = m_undiagnosed || m_health->figuresChanged();
        if (acknowledgedMayBeGone(snapshot))
            requestSoon(snapshot.now);
        else if (m_undiagnosed)
            requestIfDue(snapshot.now);
    });
}

// The worker stays with the health thread, which deletes it when it ends.
DiagnosisMonitor::~DiagnosisMonitor() = default;

void DiagnosisMonitor::setProfile(const OutboxProfile &profile)
{
    postToWorker(
        m_worker.data(), [profile](DiagnosisWorker *worker) { worker->setProfile(profile); });
}

void DiagnosisMonitor::setTileThresholds(const TileThresholds &tiles)
{
    m_tiles = tiles;
    if (m_health->hasSnapshot())
        applySlot(m_health->snapshot());
    const TileLimits dead = tiles.dead;
    postToWorker(m_worker.data(), [dead](DiagnosisWorker *worker) { worker->setDeadTile(dead); });
    if (m_hasResult && m_health->hasSnapshot())
        requestSoon(m_health->snapshot().now);
}

qint64 DiagnosisMonitor::spacingMs(qint64 costMs)
{
    return std::max<qint64>(0, costMs) * CostFactor;
}

void DiagnosisMonitor::requestIfDue(qint64 now)
{
    if (m_sinceStart.isValid()
        && m_sinceStart.elapsed() < std::max(m_minimumSpacingMs, spacingMs(m_lastCostMs)))
        return;
    request(now);
}

// Events on hold or investigating may have left DEAD: the tile's count of them would lie.
bool DiagnosisMonitor::acknowledgedMayBeGone(const HealthSnapshot &snapshot) const
{
    return m_hasResult && m_result.acknowledged() > 0
        && snapshot.isAvailable(QStringLiteral("dead")) && m_askedAtDead >= 0
        && snapshot.counts.dead < m_askedAtDead;
}

void DiagnosisMonitor::request(qint64 now)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (!m_worker || isRunning())
        return;
    const HealthSnapshot *asked = m_health->hasSnapshot() ? &m_health->snapshot() : nullptr;
    m_askedAtDead = asked && asked->isAvailable(QStringLiteral("dead")) ? asked->counts.dead : -1;
    m_sinceStart.start();
    m_undiagnosed = false;
    const quint64 id = m_requests.next();
    postToWorker(m_worker.data(), [id, now](DiagnosisWorker *worker) { worker->request(id, now); });
}

void DiagnosisMonitor::requestSoon(qint64 now)
{
    if (!isRunning()) {
        request(now);
        return;
    }
    m_queuedNow = now;
    m_queuedSince.start();
}

bool DiagnosisMonitor::accept(quint64 requestId)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (!m_requests.acceptNewer(requestId))
        return false; // older than an answer already taken, or never asked
    if (m_queuedNow) {
        const qint64 now = *m_queuedNow + m_queuedSince.elapsed();
        m_queuedNow.reset();
        // After this answer is taken: isRunning() is false once accept() returns.
        QMetaObject::invokeMethod(
            this, [this, now] { request(now); }, Qt::QueuedConnection);
    }
    return true;
}

void DiagnosisMonitor::acceptResult(quint64 requestId, const DiagnosisResult &result)
{
    if (!accept(requestId))
        return;
    m_result = result;
    m_hasResult = true;
    m_resultAt = QDateTime::currentDateTime();
    m_lastError.clear();
    m_lastCostMs = result.queryMs; // its own budget, not the snapshot's interval
    if (m_health->hasSnapshot() && m_health->snapshot().cdc)
        CdcFinding::apply(&m_result, *m_health->snapshot().cdc, m_tiles);
    emit resultChanged(m_result);
}

void DiagnosisMonitor::acceptFailure(quint64 requestId, const QString &error)
{
    if (!accept(requestId))
        return;
    m_lastError = error;
    emit failed(error);
}

// The slot's finding follows every snapshot's reading (read and tracked with it), not the
// diagnosis's slower cadence: it says what the tiles say, when they say it.
void DiagnosisMonitor::applySlot(const HealthSnapshot &snapshot)
{
    if (m_hasResult && snapshot.cdc && CdcFinding::apply(&m_result, *snapshot.cdc, m_tiles))
        emit resultChanged(m_result);
}
