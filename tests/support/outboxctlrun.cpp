#include "outboxctlrun.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <memory>
#include <vector>

namespace {

Run finished(QProcess &process)
{
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

} // namespace

Run outboxctl(const QStringList &arguments)
{
    QProcess process;
    process.start(qEnvironmentVariable("OUTBOXCTL"), arguments);
    return finished(process);
}

QList<Run> outboxctlAll(const QList<QStringList> &runs)
{
    std::vector<std::unique_ptr<QProcess>> processes;
    for (const QStringList &arguments : runs) {
        processes.push_back(std::make_unique<QProcess>());
        processes.back()->start(qEnvironmentVariable("OUTBOXCTL"), arguments);
    }
    QList<Run> results;
    for (const auto &process : processes)
        results << finished(*process);
    return results;
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
