#include "outboxctlrun.h"

#include "dbconnection.h"
#include "testdatabase.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

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

bool initialisedByCli(const QString &engine,
    const std::function<bool(const QSqlDatabase &)> &populate,
    std::unique_ptr<TestDatabase> *database, std::unique_ptr<DbConnection> *connection,
    QString *skip, QString *fail)
{
    *database = TestDatabase::create(engine, skip, fail);
    if (!*database)
        return false;
    const Run init
        = outboxctl({QStringLiteral("init"), QStringLiteral("--db"), (*database)->url()});
    if (init.exitCode != 0) {
        *fail = init.err.join(u' ');
        return false;
    }
    *connection = (*database)->connect();
    if (!*connection || !populate((*connection)->database())) {
        *fail = QStringLiteral("cannot populate ") + (*database)->url();
        return false;
    }
    return true;
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
