// A file a test writes for the program to read (an edited payload, a profile, a URL file), in a
// QTemporaryDir the test owns, so that it is gone when the test is.
#pragma once

#include <QByteArray>
#include <QString>

class QTemporaryDir;

namespace ScratchFile {

// Writes `bytes` to the file `name` in `dir`, replacing one there: its path, or empty when the
// folder is not valid or the bytes could not all be written (QVERIFY(!path.isEmpty())).
QString write(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes);
// The same for `text`, written in UTF-8.
QString writeText(const QTemporaryDir &dir, const QString &name, const QString &text);

} // namespace ScratchFile
