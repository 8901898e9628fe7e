// Message boxes that show their text as written. QMessageBox guesses the format, so an event ID
// or a database error holding "<b>" would render as markup: every box whose text can hold an
// event ID, a server's error or a file's words goes through here. Its lines are shown with
// PlainText's escapes (a U+202E in an event ID reads "\u202e"); tooltips are PlainToolTips'.
#pragma once

#include <QMessageBox>

namespace PlainMessage {

QMessageBox::StandardButton information(QWidget *parent, const QString &title, const QString &text);
QMessageBox::StandardButton warning(QWidget *parent, const QString &title, const QString &text);

} // namespace PlainMessage
