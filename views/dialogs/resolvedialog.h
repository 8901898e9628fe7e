// Asks before resolving parked (DEAD) events, in OperatorDialog's frame: which (a preview of
// their IDs), who and why. A resolved event is closed without delivery and never claimed again,
// so the dialog says so and needs a reason and an operator, which resolve_log records, and,
// above the threshold Replay uses, the count typed.
#pragma once

#include "operatordialog.h"

class ResolveDialog : public OperatorDialog
{
    Q_OBJECT
public:
    // `preview` lists some or all of the `count` events.
    ResolveDialog(const QStringList &preview, qint64 count, QWidget *parent = nullptr);

private:
    static Text text(qint64 count);
};
