// A link names the database the window connects to. libpq sends the user name (and PGPASSWORD,
// if the environment holds one) to the server a link names, so a link to a database this
// computer never opened asks the operator first.
#pragma once

#include <QString>

class QWidget;

namespace LinkConfirmation {

// Whether this computer opened the database of `urlText` before: one of Connect…'s recent
// databases or the last one opened (compared without a password, as they are stored).
bool isKnownDatabase(const QString &urlText);
// The question asked for a database this computer never opened (plain text, no password).
QString question(const QString &urlText);
// True to go on: the database is known, or the operator chose Open (the default is Cancel).
bool confirm(const QString &urlText, QWidget *parent = nullptr);

} // namespace LinkConfirmation
