// Message boxes that show their text as written. QMessageBox guesses the format, so an event ID
// or a database error holding "<b>" would render as markup: every box whose text can hold an
// event ID, a server's error or a file's words goes through here.
#pragma once

#include <QMessageBox>

namespace PlainMessage {

QMessageBox::StandardButton information(QWidget *parent, const QString &title, const QString &text);
QMessageBox::StandardButton warning(QWidget *parent, const QString &title, const QString &text);
// A tooltip that shows `text` as written: Qt guesses a tooltip's format as well, so a role
// named "<b>x</b>" would render as markup. Text that cannot be read as markup stays as it is.
QString toolTip(const QString &text);

} // namespace PlainMessage
