// The wiring every operator action shares in the window (replay, resolve; reopen and
// edit-and-replay to come): the DEAD events selected in the event table, the thread the job
// runs on, and the message that reports its outcome. The thread has a connection of its own
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

    // `window` parents the message boxes.
    OperatorRunner(const DatabaseUrl &url, QTableView *view, bool readOnly, QWidget *window,
        QObject *parent = nullptr);
    ~OperatorRunner() override; // stops a running job between two events and waits for it

    // Another library's table (std::nullopt: the native schema).
    void setProfile(const std::optional<OutboxProfile> &profile) { m_profile = profile; }
    bool isRunning() const { return m_thread != nullptr; }

    // The IDs of the selected rows that are DEAD, in the selection's order.
    QStringList selectedDeadIds() const;
    // Starts `work` on a thread called `name`; `done` follows. False (and nothing started)
    // while a job runs.
    bool start(const QString &name, Work work, Done done);
    // The outcome in a message box: why it stopped and how many were done before, or how many
    // were done and the first 20 skipped ones.
    void report(const OperatorOutcome &outcome, const ReportText &text) const;

signals:
    void runningChanged(); // isRunning() changed

private:
    DatabaseUrl m_url;
    QTableView *m_view = nullptr;
    bool m_readOnly = false;
    QWidget *m_window = nullptr;
    std::optional<OutboxProfile> m_profile;
    std::unique_ptr<QThread> m_thread;
    std::shared_ptr<std::atomic_bool> m_stop;
};
