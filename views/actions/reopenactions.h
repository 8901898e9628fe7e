// Reopening resolved events from the window: "Reopen selected…" (enabled while the selection
// holds a RESOLVED row) puts the selected RESOLVED events back to DEAD (recorded in reopen_log)
// after a dialog that asks who and why; the undo of Resolve. A StateChangeActions, as resolve,
// running the Reopener's change; disabled, its tooltip saying why, in read-only mode, through a
// profile (another library's table has no RESOLVED state: not available) and on a native schema
// older than version 2.
#pragma once

#include "statechangeactions.h"
#include "statechangetypes.h"

class ReopenActions : public StateChangeActions
{
    Q_OBJECT
public:
    ReopenActions(
        const DatabaseUrl &url, QTableView *view, bool readOnly, Clock clock, QWidget *window);

    QAction *reopenSelectedAction() const { return selectedAction(); }
    // Reopens in the background; reopenFinished follows (also when refused).
    void startReopen(const ReopenRequest &request) { start(request); }

signals:
    void reopenFinished(const ReopenResult &result);

private:
    static Spec spec();
};
