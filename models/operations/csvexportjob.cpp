#include "csvexportjob.h"

#include "csvexport.h"

#include <QSaveFile>
#include <QThread>

CsvExportJob::CsvExportJob(const CsvExportTask &task, QObject *parent)
    : QObject(parent)
    , m_task(task)
{ }

CsvExportJob::~CsvExportJob()
{
    if (!m_thread)
        return;
    m_cancel = true;
    m_thread->wait(); // stops after the row being written, or when the statement returns
}

bool CsvExportJob::isRunning() const
{
    return m_thread && m_thread->isRunning();
}

void CsvExportJob::start()
{
    Q_ASSERT(QThread::currentThread() == thread());
    Q_ASSERT(!m_thread);
    m_thread.reset(QThread::create([this] { run(); }));
    m_thread->setObjectName(QStringLiteral("outbox-export"));
    connect(m_thread.get(), &QThread::finished, this,
        [this] { emit finished(m_ok, m_cancel && !m_ok, m_rows, m_error); });
    // Below the GUI thread: on Linux SCHED_IDLE, so formatting a million rows takes only the
    // CPU time the window does not want, and the window answers at once even on two cores.
    m_thread->start(QThread::IdlePriority);
}

void CsvExportJob::run()
{
    OpenOptions options;
    options.readOnly = true;
    options.validateSchema = false; // the window that asked validated it
    const auto connection = DbConnection::open(m_task.url, options, &m_error);
    if (!connection)
        return;
    QSaveFile file(m_task.path);
    if (!file.open(QIODevice::WriteOnly)) {
        m_error = file.errorString();
        return;
    }
    const CsvExport::Progress progress = [this](qint64 rows) {
        m_rows = rows;
        if (rows % ProgressEveryRows == 0)
            emit progressed(rows);
        return !m_cancel;
    };
    const QSqlDatabase db = connection->database();
    qint64 rows = 0;
    bool ok = false;
    if (m_task.kind == CsvExportTask::Kind::ReplayLog) {
        ok = CsvExport::exportReplayLog(db, &file, &m_error, {}, &rows, progress);
    } else {
        const QString source = OutboxProfile::sourceOf(m_task.profile, db);
        ok = CsvExport::exportEvents(db, m_task.filter, m_task.now, m_task.sensitiveKeys, &file,
            &m_error, &rows, source, progress);
    }
    if (!ok) {
        file.cancelWriting(); // the partial file is deleted; an older file at the path stays
        return;
    }
    m_rows = rows;
    m_ok = file.commit();
    if (!m_ok)
        m_error = file.errorString();
}
