#include "testserver.h"

#include <QFileInfo>
#include <QProcess>
#include <unistd.h>

namespace {

QString env(const char *name)
{
    return qEnvironmentVariable(name);
}

// PostgreSQL refuses to run as root; scripts/test then runs it as the postgres user.
bool pgCtl(const QStringList &arguments, QString *error)
{
    const QString pgCtl = env("PG_BINDIR") + QStringLiteral("/pg_ctl");
    QString program = pgCtl;
    QStringList args = arguments;
    if (geteuid() == 0) {
        program = QStringLiteral("runuser");
        args = QStringList {QStringLiteral("-u"), QStringLiteral("postgres"), QStringLiteral("--"),
                   pgCtl}
            + arguments;
    }
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(program, args);
    if (!process.waitForFinished(90000) || process.exitStatus() != QProcess::NormalExit
        || process.exitCode() != 0) {
        *error = QStringLiteral("pg_ctl %1 failed: %2")
                     .arg(arguments.join(QLatin1Char(' ')),
                         QString::fromLocal8Bit(process.readAll()).trimmed());
        return false;
    }
    return true;
}

} // namespace

namespace TestServer {

QString unavailableReason()
{
    if (env("PG_DATADIR").isEmpty() || env("PG_PORT").isEmpty() || env("PG_BINDIR").isEmpty())
        return QStringLiteral("no PostgreSQL server started by scripts/test "
                              "(PG_DATADIR, PG_PORT, PG_BINDIR unset)");
    if (!QFileInfo(env("PG_BINDIR") + QStringLiteral("/pg_ctl")).isExecutable())
        return QStringLiteral("pg_ctl not found in PG_BINDIR");
    return {};
}

bool stop(QString *error)
{
    // The suite's server runs with synchronous_commit off, for speed: an immediate stop would
    // lose the last commits, which a production server keeps. A checkpoint first makes what
    // was committed survive, as it would there.
    QProcess checkpoint;
    checkpoint.setProcessChannelMode(QProcess::MergedChannels);
    checkpoint.start(env("PG_BINDIR") + QStringLiteral("/psql"),
        {QStringLiteral("-h"), QStringLiteral("127.0.0.1"), QStringLiteral("-p"), env("PG_PORT"),
            QStringLiteral("-U"), QStringLiteral("postgres"), QStringLiteral("-d"),
            QStringLiteral("postgres"), QStringLiteral("-X"), QStringLiteral("-q"),
            QStringLiteral("-c"), QStringLiteral("CHECKPOINT")});
    if (!checkpoint.waitForFinished(60000) || checkpoint.exitCode() != 0) {
        *error = QStringLiteral("CHECKPOINT before stopping failed: %1")
                     .arg(QString::fromLocal8Bit(checkpoint.readAll()).trimmed());
        return false;
    }
    return pgCtl({QStringLiteral("-D"), env("PG_DATADIR"), QStringLiteral("-m"),
                     QStringLiteral("immediate"), QStringLiteral("-w"), QStringLiteral("-t"),
                     QStringLiteral("60"), QStringLiteral("stop")},
        error);
}

bool start(QString *error)
{
    const QString dir = env("PG_DATADIR");
    return pgCtl(
        {QStringLiteral("-D"), dir, QStringLiteral("-l"), dir + QStringLiteral("/server.log"),
            QStringLiteral("-w"), QStringLiteral("-t"), QStringLiteral("60"), QStringLiteral("-o"),
            QStringLiteral("-p ") + env("PG_PORT"), QStringLiteral("start")},
        error);
}

} // namespace TestServer
