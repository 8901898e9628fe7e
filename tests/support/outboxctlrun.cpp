#include "outboxctlrun.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

Run outboxctl(const QStringList &arguments)
{
    QProcess process;
    process.start(qEnvironmentVariable("OUTBOXCTL"), arguments);
    Run run;
    if (!process.waitForFinished(60000))
        return run;
    run.exitCode = process.exitCode();
    run.out = QString::fromUtf8(process.readAllStandardOutput())
                  .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    run.err = QString::fromUtf8(process.readAllStandardError())
                  .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    return run;
}

bool failedAsJson(const Run &run)
{
    if (run.err.size() != 1 || run.out.size() != 1)
        return false;
    const QJsonDocument document = QJsonDocument::fromJson(run.out.first().toUtf8());
    const QString prefix = QStringLiteral("outboxctl: ");
    return document.isObject() && run.err.first().startsWith(prefix)
        && document.object().value(QStringLiteral("error")).toString()
        == run.err.first().mid(prefix.size());
}

QString auditStoreUrl()
{
    static QTemporaryDir dir;
    static const QString url = [] {
        const QString made = QStringLiteral("sqlite:") + dir.filePath(QStringLiteral("audit.db"));
        return outboxctl({QStringLiteral("init"), QStringLiteral("--db"), made}).exitCode == 0
            ? made
            : QString();
    }();
    return url;
}
