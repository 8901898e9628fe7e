// One CSV export ("Export events…" or "Export replay log…") on a thread of its own with its
// own read-only connection: rows stream from the database through CsvExport into a QSaveFile,
// so memory stays flat and the target file appears only when the whole export succeeded. The
// job owns its thread; cancel() stops it between two rows (the partial file is deleted), and
// deleting the job cancels and waits, so closing the window never leaves a thread behind.
#pragma once

#include "dbconnection.h"
#include "eventfilter.h"
#include "outboxprofile.h"

#include <QObject>
#include <QStringList>
#include <atomic>
#include <memory>
#include <optional>

class QThread;

struct CsvExportTask
{
    enum class Kind { Events, ReplayLog };
    Kind kind = Kind::Events;
    DatabaseUrl url;
    std::optional<OutboxProfile> profile; // another schema than the native one
    EventFilter filter; // events only
    qint64 now = 0; // events only: the time the filter's ages are measured at
    QStringList sensitiveKeys; // events only: payload keys masked
    QString path;
};

class CsvExportJob : public QObject
{
    Q_OBJECT
public:
    static constexpr qint64 ProgressEveryRows = 1000;

    explicit CsvExportJob(const CsvExportTask &task, QObject *parent = nullptr);
    ~CsvExportJob() override; // cancels a running export and waits for its thread

    void start();
    void cancel() { m_cancel = true; }
    bool isRunning() const;
    const CsvExportTask &task() const { return m_task; }

signals:
    // Rows written so far, every ProgressEveryRows rows (queued to the job's thread).
    void progressed(qint64 rows);
    // ok: the file holds every row; cancelled: stopped on request, nothing left at the path.
    void finished(bool ok, bool cancelled, qint64 rows, const QString &error);

private:
    void run(); // on the job's thread

    CsvExportTask m_task;
    std::unique_ptr<QThread> m_thread;
    std::atomic_bool m_cancel = false;
    std::atomic<qint64> m_rows = 0;
    // Written by the thread before it finishes, read on the GUI thread after `finished`.
    bool m_ok = false;
    QString m_error;
};
