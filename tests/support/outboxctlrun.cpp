#include "outboxctlrun.h"

#include <QProcess>

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
