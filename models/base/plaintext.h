// Text from the database or the command line made safe for plain-text output (a terminal, a
// log line, a message box, a table cell): a stored event ID holding "\x1b[2K\routboxctl:
// replayed 0 events" must not clear the line and forge another one, and one holding U+202E
// (right-to-left override) must not read "R-exe.jpg" for "R-gpj.exe". JSON output needs none of
// this: its encoder escapes control characters itself, and JSON stays exact.
#pragma once

#include <QString>

namespace PlainText {

// Control characters (C0, DEL, C1) written as escapes: newline "\n", carriage return "\r", tab
// "\t", anything else "\xNN" (ESC is "\x1b"). Invisible format characters (Unicode category Cf:
// the bidirectional controls U+202A-U+202E and U+2066-U+2069, U+200B-U+200F, U+00AD, U+FEFF
// and the rest), the line and paragraph separators U+2028/U+2029 and unpaired surrogates as
// "\uXXXX" (beyond the BMP "\UXXXXXXXX"). Everything else, backslashes included, is kept.
QString escaped(const QString &text);

// `text` for a tooltip, shown exactly as escaped() writes it except that newlines stay line
// breaks. A tooltip guesses its format (Qt::mightBeRichText looks for a tag): text with a '<'
// becomes rich text whose every character is escaped, so that "<h1>" reads "<h1>" and never
// renders as markup; text without one stays plain text.
QString toolTip(const QString &text);

// `text` as one word a POSIX shell reads back unchanged: as it is when it holds only letters,
// digits and "_-.,:/@%+=", else in single quotes ("'HTTP <n> from payments'", a quote inside
// written '\''). What outboxctl prints for a user to paste as an option's value.
QString shellQuoted(const QString &text);

} // namespace PlainText
