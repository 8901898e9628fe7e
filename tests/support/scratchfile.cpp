#include "scratchfile.h"

#include <QFile>
#include <QTemporaryDir>

namespace ScratchFile {

QString write(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    if (!dir.isValid())
        return {};
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(bytes) != bytes.size()
        || !file.flush())
        return {};
    return path;
}

QString writeText(const QTemporaryDir &dir, const QString &name, const QString &text)
{
    return write(dir, name, text.toUtf8());
}

} // namespace ScratchFile
