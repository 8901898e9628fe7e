#include "resolvedialog.h"

OperatorDialog::Text ResolveDialog::text(qint64 count)
{
    return {QStringLiteral("resolve"), tr("Resolve parked events"),
        tr("<b>Resolve %n parked event(s)</b> without delivering them. A resolved event "
           "leaves the DEAD count, stays in the table as RESOLVED and is never claimed again; "
           "each is resolved in its own transaction, only while it is still DEAD, and "
           "recorded in resolve_log.",
            nullptr, int(count)),
        tr("Why? e.g. order cancelled, no delivery needed (required)"),
        tr("Resolve %n event(s)", nullptr, int(count)), TypedConfirmationAbove};
}

ResolveDialog::ResolveDialog(const QStringList &preview, qint64 count, QWidget *parent)
    : OperatorDialog(text(count), preview, count, parent)
{ }
