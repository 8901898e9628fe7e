// The wiring every operator action shares in the window (replay, edit and replay, resolve,
// reopen): the events selected in the event table in the state the action
// takes (DEAD, RESOLVED), the thread the job runs on, and the message that reports its outcome:
// a success is a transient status-bar message (the audit row is on the Audit page), only a
// failure, or nothing done, is a message box. The thread has a connection of its own
// (a connection belongs to the thread that opened it), opened as the window's: read-only in
// read-only mode, another schema's tables not validated again (its profile was, on opening).
// Deleting the runner (closing the window) sets the stop flag the job checks between two
// events, each committed or never begun, and waits for the thread; Cancel in its status-bar
// part (status(): a bar, done of total, rate and time left) sets the same flag.
#pragma once

#include "dbconnection.h"
#include "operatorjob.h"
#include "operatorrequest.h"
#include "outboxprofile.h"

#include <QObject>
#include <QPointer>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

class JobStatus;
class QTableView;
class QThread;
class QWidget;

class OperatorRunner : public QObject
{
    Q_OBJECT
public:
    // Runs on the job's thread with its connection; a job stops once `stop` is set. An error
    // set here reaches `Done`.
    using Work = std::function<void(const QSqlDatabase &db,
        const std::optional<OutboxProfile> &profile, const std::atomic_bool *stop, QString *error)>;
    using Done = std::function<void(const QString &error)>; // on the GUI thread

    // The texts of a report, made by the action with its own counts (tr's %n): `stopped` takes
    // the error (%1) and how many were done before it (%2), `skipped` the skipped IDs (%1).
    struct ReportText
    {
        QString title;
        QString stopped;
        QString done;
        QString skipped;
    };
    // How a job's progress reads in status(): `starting` until the first figure ("Replaying…"),
    // then `doing` with the events taken (%1) and the total (%2) ("Replaying %1 of %2").
    struct ProgressText
    {
        QString starting;
        QString doing;
    };

    // `window` parents the message boxes and shows the successes in its status bar.
    OperatorRunner(const DatabaseUrl &url, QTableView *view, bool readOnly, QWidget *window,
        QObject *parent = nullptr);
    ~OperatorRunner() override; // stops a running job between two events and waits for it

    // Another library's table (std::nullopt: the native schema).
    void setProfile(const std::optional<OutboxProfile> &profile) { m_profile = profile; }
    bool isRunning() const { return m_thread != nullptr; }

    // The IDs of the selected rows that are DEAD, in the selection's order.
    QStringList selectedDeadIds() const { return selectedIdsIn(QStringLiteral("DEAD")); }
    // The IDs of the selected rows in `status` (DEAD, RESOLVED), in the selection's order.
    QStringList selectedIdsIn(const QString &status) const;
    bool selectionHas(const QString &status) const;
    // Starts `work` on a thread called `name`; `done` follows. False (and nothing started)
    // while a job runs. With `progress`, status() shows the job until finish() is called.
    bool start(const QString &name, Work work, Done done, const ProgressText &progress = {});
    // For the job to report with (Replayer::setProgress): called on the job's thread, it
    // reaches status() and progressed() through queued signals.
    OperatorJob::Progress progress();
    // Stops the running job between two events (each committed or never begun).
    void cancel();
    // The status bar's part for this runner's jobs; the window adds it to its status bar.
    JobStatus *status() const;
    // Ends status() with the outcome in one line: `did` takes the events done (%1) and the
    // total (%2) ("Replayed %1 of %2"), then what was skipped, "cancelled" or the error.
    void finish(const OperatorOutcome &outcome, const QString &title, const QString &did);
    // The outcome: why it stopped and how many were done before (a message box), or how many
    // were done and the first 20 skipped ones (the status bar; a box when none was done). None
    // for a cancelled job: the operator asked, and status() says how far it got.
    // An event whose COMMIT got no answer is named first ("Outcome unknown: ID — check it"),
    // with what settles it.
    void report(const OperatorOutcome &outcome, const ReportText &text) const;

signals:
    void runningChanged(); // isRunning() changed
    void progressed(qint64 taken, qint64 total); // emitted on the job's thread, so queued
    void selectionChanged(); // the selected rows, or their states, may have changed

private:
    void reportUnknown(const OperatorOutcome &outcome, const ReportText &text) const;

    DatabaseUrl m_url;
    QTableView *m_view = nullptr;
    bool m_readOnly = false;
    QWidget *m_window = nullptr;
    std::optional<OutboxProfile> m_profile;
    std::unique_ptr<QThread> m_thread;
    std::shared_ptr<std::atomic_bool> m_stop;
    QPointer<JobStatus> m_status; // the status bar may delete it first
    QString m_doing; // ProgressText::doing of the running job
};
