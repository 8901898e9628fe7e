// Asks before reopening resolved events, in OperatorDialog's frame: which (a preview of their
// IDs), who and why. A reopened event is DEAD again, to be replayed or resolved once more, and
// reopen_log records who reopened it and why.
#pragma once

#include "operatordialog.h"

class ReopenDialog : public OperatorDialog
{
    Q_OBJECT
public:
    // `preview` lists some or all of the `count` events.
    ReopenDialog(const QStringList &preview, qint64 count, QWidget *parent = nullptr);

private:
    static Text text(qint64 count);
};
