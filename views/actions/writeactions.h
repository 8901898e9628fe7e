// The shell every write action of the window shares (resolve and reopen through
// StateChangeActions, edit-and-replay, notes): the guards that enable it — read-only mode (
// --read-only), a profile (the action's own words), the database's grants (TableGrants) and the
// native schema's version (from the health snapshot) — with the reason as tooltip; the
// OperatorRunner whose thread and connection run its writes, with its part of the status bar;
// and whether the running job was started by the operator (then its outcome is reported in a
// message) or by a caller (a test, a script: only the signals). A subclass says what differs:
// the refusal through a profile, the newer-schema sentence, and how its actions are enabled.
#pragma once

#include "dbconnection.h"
#include "operatorrunner.h"
#include "outboxprofile.h"
#include "tablegrants.h"

#include <QObject>
#include <functional>
#include <optional>
#include <utility>

class JobStatus;
class QTableView;
class QWidget;

class WriteActions : public QObject
{
    Q_OBJECT
public:
    using Clock = std::function<qint64()>;

    // What guards the action: the writes it makes, and the schema version it needs.
    struct Guards
    {
        TableGrants::Operation grants = TableGrants::Operation::Replay;
        int neededVersion = 0;
    };

    WriteActions(Guards guards, const DatabaseUrl &url, QTableView *view, bool readOnly,
        Clock clock, QWidget *window);
    ~WriteActions() override; // stops a running job between two events and waits

    void setProfile(const OutboxProfile &profile);
    // The native schema's version, from the health snapshot (0 until the first one).
    void setSchemaVersion(int version);
    // What the database's grants allow the connected role (GrantsMonitor).
    void setGrants(const TableGrants &grants);
    // Why the action is not possible here; empty when it is.
    virtual QString refusal() const;

    bool isBusy() const;
    // The status bar's part for the action: progress and Cancel, then the outcome.
    JobStatus *status() const;

signals:
    void availabilityChanged(); // refusal() or isBusy() changed

protected:
    // The tooltip through a profile (another schema than the native one).
    virtual QString profileRefusal(const OutboxProfile &profile) const = 0;
    // The sentence for a schema older than Guards::neededVersion (`outdated` says what to run).
    virtual QString newerSchema(const QString &outdated) const = 0;
    // Enables the subclass's actions from refusal() and isBusy(); emits availabilityChanged().
    virtual void updateEnabled() = 0;

    OperatorRunner *runner() const { return m_runner; }
    QWidget *window() const { return m_window; }
    bool isReadOnly() const { return m_readOnly; }
    const std::optional<OutboxProfile> &profile() const { return m_profile; }
    int schemaVersion() const { return m_schemaVersion; }
    const TableGrants &grants() const { return m_grants; }
    qint64 now() const { return m_clock(); }
    // The refusals every action shares, in their order: read-only, the profile, the grants, the
    // schema not yet known, the schema too old.
    QString shellRefusal() const;
    // ... with the grants of `operation` instead of Guards::grants (an action of several writes,
    // such as notes: adding needs INSERT, clearing UPDATE).
    QString shellRefusal(TableGrants::Operation operation) const;
    // The next job is the operator's: its outcome is reported (takeInteractive() once done).
    void markInteractive() { m_interactive = true; }
    bool takeInteractive() { return std::exchange(m_interactive, false); }

private:
    Guards m_guards;
    bool m_readOnly = false;
    Clock m_clock;
    QWidget *m_window = nullptr;
    std::optional<OutboxProfile> m_profile; // only for another schema than the native one
    int m_schemaVersion = 0;
    TableGrants m_grants; // unknown until read: nothing refused by them
    bool m_interactive = false;
    OperatorRunner *m_runner = nullptr;
};
