#include "hostilefile.h"

#include <QFile>
#include <QTemporaryDir>
#include <sys/stat.h>

namespace HostileFile {

QString make(const QTemporaryDir &dir, const QString &kind)
{
    if (kind == QLatin1String("fifo")) {
        const QString path = dir.filePath(QStringLiteral("pipe"));
        return ::mkfifo(QFile::encodeName(path).constData(), 0600) == 0 ? path : QString();
    }
    if (kind == QLatin1String("dir"))
        return dir.path();
    if (kind == QLatin1String("big")) {
        const QString path = dir.filePath(QStringLiteral("big"));
        QFile file(path);
        const QByteArray padding = QByteArray("# padding\n").repeated(110000);
        return file.open(QIODevice::WriteOnly) && file.write(padding) == padding.size() ? path
                                                                                        : QString();
    }
    return kind;
}

} // namespace HostileFile
