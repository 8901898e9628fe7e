// Counts as a person reads them, the same in the window and in outboxctl's text output:
// "1,757", with the group separator of the locale (QLocale's "C" locale, which a terminal
// without LANG gets, would leave it out). JSON output stays plain digits.
#pragma once

#include <QString>

namespace NumberText {

QString count(qint64 value); // "1,757"; "-3"; "0"
// The count and the word for it: "1 event", "1,757 events".
QString counted(qint64 value, const QString &one, const QString &many);

} // namespace NumberText
