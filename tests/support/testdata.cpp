#include "testdata.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace TestData {

QString sourceDir()
{
    const QString fromEnvironment = qEnvironmentVariable("OUTBOX_SOURCE_DIR");
    if (!fromEnvironment.isEmpty())
        return fromEnvironment;
    // build/PRESET/tests/tst_x: the root is three folders up.
    if (QCoreApplication::instance()) {
        const QString root
            = QDir(QCoreApplication::applicationDirPath() + QStringLiteral("/../../.."))
                  .canonicalPath();
        if (QFileInfo::exists(root + QStringLiteral("/tests/support/testdata.h")))
            return root;
    }
    qFatal("OUTBOX_SOURCE_DIR is not set: run the test through ctest, or set it to the "
           "repository's root");
}

QString path(const QString &relative)
{
    return sourceDir() + QStringLiteral("/tests/") + relative;
}

QString path(const char *relative)
{
    return path(QString::fromUtf8(relative));
}

bool inCi()
{
    const QByteArray ci = qgetenv("CI").toLower();
    return ci == "true" || ci == "1";
}

} // namespace TestData
