#include "reopendialog.h"

OperatorDialog::Text ReopenDialog::text(qint64 count)
{
    return {QStringLiteral("reopen"), tr("Reopen resolved events"),
        tr("<b>Reopen %n resolved event(s)</b>: each goes back to DEAD, where it can be "
           "replayed or resolved again; nothing is delivered now. Each is reopened in its own "
           "transaction, only while it is still RESOLVED, and recorded in reopen_log.",
            nullptr, int(count)),
        tr("Why? e.g. resolved by mistake, the order is back (required)"),
        tr("Reopen %n event(s)", nullptr, int(count)), TypedConfirmationAbove};
}

ReopenDialog::ReopenDialog(const QStringList &preview, qint64 count, QWidget *parent)
    : OperatorDialog(text(count), preview, count, parent)
{ }
