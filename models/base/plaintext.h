// Text from the database or the command line made safe for plain-text output (a terminal, a
// log line, a message box): a stored event ID holding "\x1b[2K\routboxctl: replayed 0 events"
// must not clear the line and forge another one. JSON output needs none of this: its encoder
// escapes control characters itself, and JSON stays exact.
#pragma once

#include <QString>

namespace PlainText {

// Control characters (C0, DEL, C1) written as escapes: newline "\n", carriage return "\r", tab
// "\t", anything else "\xNN" (ESC is "\x1b"). Everything else, backslashes included, is kept.
QString escaped(const QString &text);

} // namespace PlainText
