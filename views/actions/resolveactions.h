// Resolving parked events from the window: "Resolve selected…" (Ctrl+Shift+X, enabled while the
// selection holds a DEAD row) closes the selected DEAD events without delivering them (DEAD →
// RESOLVED, recorded in resolve_log), after a dialog that asks who and why (and, above 100
// events, the count typed). A StateChangeActions (the wiring it shares with reopen) running the
// Resolver's change; disabled, its tooltip saying why, in read-only mode, through a profile
// (another library's table: its own tools close events) and on a native schema older than
// version 2 (what to run: `outboxctl migrate`).
#pragma once

#include "statechangeactions.h"
#include "statechangetypes.h"

class ResolveActions : public StateChangeActions
{
    Q_OBJECT
public:
    ResolveActions(
        const DatabaseUrl &url, QTableView *view, bool readOnly, Clock clock, QWidget *window);

    QAction *resolveSelectedAction() const { return selectedAction(); }
    // Resolves in the background; resolveFinished follows (also when refused).
    void startResolve(const ResolveRequest &request) { start(request); }
    // Asks with the dialog (who and why), then resolves these events (an error group's DEAD
    // events, say); nothing when resolving is refused here or one already runs.
    void resolveEvents(const QStringList &ids) { askAndStart(ids); }

signals:
    void resolveFinished(const ResolveResult &result);
    // Events taken (resolved or skipped) of the total, on the resolve's thread.
    void resolveProgressed(qint64 taken, qint64 total);

private:
    static Spec spec();
};
