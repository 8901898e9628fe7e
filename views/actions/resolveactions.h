// Resolving parked events from the window: "Resolve selected…" (Ctrl+Shift+X, enabled while the
// selection holds a DEAD row) closes the selected DEAD events without delivering them (DEAD →
// RESOLVED, recorded in resolve_log), after a dialog that asks who and why (and, above 100
// events, the count typed). The Resolver runs on OperatorRunner's thread, the wiring resolve shares
// with replay: deleting the actions (closing the window) stops it between two events and waits;
// its progress, rate and Cancel show in a part of the status bar (status()), then its outcome. The
// action is disabled, its tooltip saying why, in read-only mode, through a profile (another
// library's table: its own tools close events) and on a native schema older than version 2
// (what to run: `outboxctl migrate`).
#pragma once

#include "dbconnection.h"
#include "outboxprofile.h"
#include "resolvetypes.h"

#include <QObject>
#include <functional>
#include <optional>

class JobStatus;
class OperatorRunner;
class QAction;
class QTableView;
class QWidget;

class ResolveActions : public QObject
{
    Q_OBJECT
public:
    using Clock = std::function<qint64()>;

    ResolveActions(
        const DatabaseUrl &url, QTableView *view, bool readOnly, Clock clock, QWidget *window);
    ~ResolveActions() override; // stops a running resolve between two events and waits

    void setProfile(const OutboxProfile &profile);
    // The native schema's version, from the health snapshot (0 until the first one).
    void setSchemaVersion(int version);
    // Why resolving is not possible here; empty when it is.
    QString refusal() const;

    QAction *resolveSelectedAction() const { return m_resolveSelected; }
    bool isBusy() const;
    // The status bar's part for a resolve: progress and Cancel, then the outcome.
    JobStatus *status() const;

    // Resolves in the background; resolveFinished follows (also when refused).
    void startResolve(const ResolveRequest &request);
    // Asks with the dialog (who and why), then resolves these events (an error group's DEAD
    // events, say); nothing when resolving is refused here or one already runs.
    void resolveEvents(const QStringList &ids);

signals:
    void resolveFinished(const ResolveResult &result);
    // Events taken (resolved or skipped) of the total, on the resolve's thread, as
    // OperatorActions::replayProgressed.
    void resolveProgressed(qint64 taken, qint64 total);
    void availabilityChanged(); // refusal() or isBusy() changed

private:
    void resolveSelected();
    void report(const ResolveResult &result);
    void updateEnabled();

    bool m_readOnly = false;
    Clock m_clock;
    QWidget *m_window = nullptr;
    std::optional<OutboxProfile> m_profile; // only for another schema than the native one
    int m_schemaVersion = 0;
    QAction *m_resolveSelected = nullptr;
    bool m_interactive = false;
    OperatorRunner *m_runner = nullptr;
};
