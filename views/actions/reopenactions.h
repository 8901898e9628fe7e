// Reopening resolved events from the window: "Reopen selected…" (enabled while the selection
// holds a RESOLVED row) puts the selected RESOLVED events back to DEAD (recorded in reopen_log)
// after a dialog that asks who and why; the undo of Resolve. The Reopener runs on an
// OperatorRunner's thread, as resolve does; deleting the actions (closing the window) stops it
// between two events and waits. Disabled, its tooltip saying why, in read-only mode, through a
// profile (another library's table has no RESOLVED state: not available) and on a native schema
// older than version 2.
#pragma once

#include "dbconnection.h"
#include "outboxprofile.h"
#include "reopentypes.h"

#include <QObject>
#include <functional>
#include <optional>

class JobStatus;
class OperatorRunner;
class QAction;
class QTableView;
class QWidget;

class ReopenActions : public QObject
{
    Q_OBJECT
public:
    using Clock = std::function<qint64()>;

    ReopenActions(
        const DatabaseUrl &url, QTableView *view, bool readOnly, Clock clock, QWidget *window);
    ~ReopenActions() override; // stops a running reopen between two events and waits

    void setProfile(const OutboxProfile &profile);
    // The native schema's version, from the health snapshot (0 until the first one).
    void setSchemaVersion(int version);
    // Why reopening is not possible here; empty when it is.
    QString refusal() const;

    QAction *reopenSelectedAction() const { return m_reopenSelected; }
    bool isBusy() const;
    // The status bar's part for a reopen: its outcome, beside the connection line.
    JobStatus *status() const;

    // Reopens in the background; reopenFinished follows (also when refused).
    void startReopen(const ReopenRequest &request);

signals:
    void reopenFinished(const ReopenResult &result);

private:
    void reopenSelected();
    void report(const ReopenResult &result);
    void updateEnabled();

    bool m_readOnly = false;
    Clock m_clock;
    QWidget *m_window = nullptr;
    std::optional<OutboxProfile> m_profile; // only for another schema than the native one
    int m_schemaVersion = 0;
    QAction *m_reopenSelected = nullptr;
    bool m_interactive = false;
    OperatorRunner *m_runner = nullptr;
};
