// The wiring every operator action shares in the window (replay, resolve, reopen;
// edit-and-replay to come): the events selected in the event table in the state the action
// takes (DEAD, RESOLVED), the thread the job runs on, and the message that reports its outcome:
// a success is a transient status-bar message (the audit row is on the Audit page), only a
// failure, or nothing done, is a message box. The thread has a connection of its own
// (a connection belongs to the thread that opened it), opened as the window's: read-only in
// read-only mode, another schema's tables not validated again (its profile was, on opening).
// Deleting the runner (closing the window) sets the stop flag the job checks between two
// events, each committed or never begun, and waits for the thread.
#pragma once

#include "dbconnection.h"
#include "operatorrequest.h"
#include "outboxprofile.h"

#include <QObject>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

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

    // How long a success stays in the status bar.
    static constexpr int SuccessMessageMs = 15000;

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
    // while a job runs.
    bool start(const QString &name, Work work, Done done);
    // The outcome: why it stopped and how many were done before (a message box), or how many
    // were done and the first 20 skipped ones (the status bar; a box when none was done).
    void report(const OperatorOutcome &outcome, const ReportText &text) const;

signals:
    void runningChanged(); // isRunning() changed
    void selectionChanged(); // the selected rows, or their states, may have changed

private:
    DatabaseUrl m_url;
    QTableView *m_view = nullptr;
    bool m_readOnly = false;
    QWidget *m_window = nullptr;
    std::optional<OutboxProfile> m_profile;
    std::unique_ptr<QThread> m_thread;
    std::shared_ptr<std::atomic_bool> m_stop;
};
