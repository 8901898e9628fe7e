#include "testserver.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QThread>
#include <csignal>
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

bool isMySql(const QString &engine)
{
    return engine == QLatin1String("mysql");
}

// Runs a program to its end; false with *error (its output) when it failed.
bool run(const QString &program, const QStringList &arguments, QString *error)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(program, arguments);
    if (process.waitForFinished(60000) && process.exitStatus() == QProcess::NormalExit
        && process.exitCode() == 0)
        return true;
    *error = QStringLiteral("%1 failed: %2")
                 .arg(QFileInfo(program).fileName(),
                     QString::fromLocal8Bit(process.readAll()).trimmed());
    return false;
}

// The private server's client, as root over its socket (as mysql_client in mysqlserver.sh).
QStringList mySqlClientArguments()
{
    return {QStringLiteral("--no-defaults"),
        QStringLiteral("--socket=") + env("MYSQL_DATADIR") + QStringLiteral("/sock"),
        QStringLiteral("-uroot")};
}

bool mySqlAnswers()
{
    QString ignored;
    return run(QStringLiteral("mariadb-admin"), mySqlClientArguments() << QStringLiteral("ping"),
        &ignored);
}

// A killed server's process is gone, or a zombie its parent has not reaped yet.
bool processGone(qint64 pid)
{
    if (::kill(pid_t(pid), 0) != 0)
        return true;
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    return stat.open(QIODevice::ReadOnly) && stat.readAll().contains(") Z ");
}

bool stopMySql(QString *error)
{
    // The suite's server does not flush its redo log at each commit, for speed: kill -9 would
    // lose the last second of commits, which a production server keeps. Flushing first makes
    // what was committed survive, as it would there.
    if (!run(QStringLiteral("mariadb"),
            mySqlClientArguments()
                << QStringLiteral("-e")
                << QStringLiteral("SET GLOBAL innodb_flush_log_at_trx_commit = 1;"
                                  " FLUSH ENGINE LOGS"),
            error))
        return false;
    QFile pidFile(env("MYSQL_DATADIR") + QStringLiteral("/mariadbd.pid"));
    const qint64 pid = pidFile.open(QIODevice::ReadOnly) ? pidFile.readAll().trimmed().toLongLong()
                                                         : 0;
    if (pid <= 0 || ::kill(pid_t(pid), SIGKILL) != 0) {
        *error = QStringLiteral("cannot kill the MariaDB server (pid file %1)").arg(pidFile.fileName());
        return false;
    }
    QDeadlineTimer deadline(30000);
    while (!processGone(pid)) {
        if (deadline.hasExpired()) {
            *error = QStringLiteral("the MariaDB server (pid %1) outlived kill -9").arg(pid);
            return false;
        }
        QThread::msleep(20);
    }
    return true;
}

// As mysqlserver.sh's _mysql_launch: the same data directory, configuration and port, detached.
bool startMySql(QString *error)
{
    const QString dir = env("MYSQL_DATADIR");
    QStringList arguments {QStringLiteral("--defaults-file=") + dir + QStringLiteral("/my.cnf")};
    if (geteuid() == 0)
        arguments << QStringLiteral("--user=mysql");
    arguments << QStringLiteral("--port=") + env("MYSQL_PORT");
    QProcess server;
    server.setProgram(QStringLiteral("/usr/sbin/mariadbd"));
    server.setArguments(arguments);
    server.setStandardOutputFile(dir + QStringLiteral("/server.log"), QIODevice::Append);
    server.setStandardErrorFile(dir + QStringLiteral("/server.log"), QIODevice::Append);
    if (!server.startDetached()) {
        *error = QStringLiteral("cannot start /usr/sbin/mariadbd");
        return false;
    }
    // InnoDB's crash recovery replays the redo log the kill left behind, which on a loaded
    // machine (the whole suite's databases share this server) takes tens of seconds.
    QDeadlineTimer deadline(180000);
    while (!mySqlAnswers()) {
        if (deadline.hasExpired()) {
            QFile log(dir + QStringLiteral("/error.log"));
            const QByteArray text = log.open(QIODevice::ReadOnly) ? log.readAll() : QByteArray();
            *error = QStringLiteral("the MariaDB server did not answer within 180 s; the end of "
                                    "%1/error.log: %2")
                         .arg(dir, QString::fromUtf8(text.right(600)).simplified());
            return false;
        }
        QThread::msleep(100);
    }
    return true;
}

} // namespace

namespace TestServer {

QString unavailableReason(const QString &engine)
{
    if (isMySql(engine)) {
        if (env("MYSQL_DATADIR").isEmpty() || env("MYSQL_PORT").isEmpty())
            return QStringLiteral("no MariaDB server started by scripts/test "
                                  "(MYSQL_DATADIR, MYSQL_PORT unset)");
        if (!QFileInfo(QStringLiteral("/usr/sbin/mariadbd")).isExecutable())
            return QStringLiteral("/usr/sbin/mariadbd not found");
        return {};
    }
    if (env("PG_DATADIR").isEmpty() || env("PG_PORT").isEmpty() || env("PG_BINDIR").isEmpty())
        return QStringLiteral("no PostgreSQL server started by scripts/test "
                              "(PG_DATADIR, PG_PORT, PG_BINDIR unset)");
    if (!QFileInfo(env("PG_BINDIR") + QStringLiteral("/pg_ctl")).isExecutable())
        return QStringLiteral("pg_ctl not found in PG_BINDIR");
    return {};
}

bool stop(const QString &engine, QString *error)
{
    return isMySql(engine) ? stopMySql(error) : stop(error);
}

bool start(const QString &engine, QString *error)
{
    return isMySql(engine) ? startMySql(error) : start(error);
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
