// What a hostile or careless user puts where the programs expect a file (issue 26): made in a
// temporary folder for the tests of every reader of user-named files.
#pragma once

#include <QString>

class QTemporaryDir;

namespace HostileFile {

// In `dir`: "fifo" a FIFO with no writer, "dir" the folder itself, "big" 1.1 MB of comment
// lines (over every limit: 1 MiB, 256 KiB); anything else is taken as a path (/dev/zero).
// Empty when it cannot be made.
QString make(const QTemporaryDir &dir, const QString &kind);

} // namespace HostileFile
