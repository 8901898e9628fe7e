#include "fixturescript.h"

#include "sqldialect.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>

namespace {

// The end of the dollar-quoted string ($tag$ ... $tag$) that starts at `at`, or -1.
qsizetype dollarQuoteEnd(const QString &script, qsizetype at)
{
    static const QRegularExpression tag(QStringLiteral("\\$[A-Za-z_]*\\$"));
    const QRegularExpressionMatch open = tag.match(
        script, at, QRegularExpression::NormalMatch, QRegularExpression::AnchorAtOffsetMatchOption);
    if (!open.hasMatch())
        return -1;
    const qsizetype close = script.indexOf(open.captured(), at + open.capturedLength());
    return close < 0 ? script.size() : close + open.capturedLength();
}

// $variable, else ${XDG_CACHE_HOME:-$HOME/.cache}/outbox-health-bench/name: where
// scripts/bootstrap installs a node library for the real-library tests.
QString benchDir(const char *variable, const QString &name)
{
    const QString dir = qEnvironmentVariable(variable);
    if (!dir.isEmpty())
        return dir;
    const QString cache = qEnvironmentVariable("XDG_CACHE_HOME");
    return QDir(cache.isEmpty() ? QDir::home().filePath(QStringLiteral(".cache")) : cache)
        .filePath(QStringLiteral("outbox-health-bench/") + name);
}

// Runs `node script ARGUMENTS` with variable=dir in its environment; its last output line is
// JSON. Empty with *error set when it fails.
QJsonObject runNode(const QString &script, const QStringList &arguments, const QString &variable,
    const QString &dir, QString *error)
{
    QProcess node;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(variable, dir);
    node.setProcessEnvironment(environment);
    node.start(
        QStandardPaths::findExecutable(QStringLiteral("node")), QStringList {script} + arguments);
    if (!node.waitForFinished(180000) || node.exitStatus() != QProcess::NormalExit
        || node.exitCode() != 0) {
        *error = QString::fromUtf8(node.readAllStandardError()).trimmed() + node.errorString();
        return {};
    }
    const QList<QByteArray> lines = node.readAllStandardOutput().trimmed().split('\n');
    return QJsonDocument::fromJson(lines.constLast()).object();
}

} // namespace

QStringList sqlStatements(const QString &script)
{
    QStringList statements;
    QString current;
    const qsizetype n = script.size();
    for (qsizetype i = 0; i < n; ++i) {
        const QChar c = script.at(i);
        const qsizetype dollarEnd = c == u'$' ? dollarQuoteEnd(script, i) : -1;
        if (c == u'-' && i + 1 < n && script.at(i + 1) == u'-') {
            while (i < n && script.at(i) != u'\n')
                ++i;
            current += u'\n';
        } else if (c == u'\'') {
            qsizetype end = i + 1; // ends at the closing quote; '' inside is an escaped quote
            while (end < n
                && !(script.at(end) == u'\'' && (end + 1 >= n || script.at(end + 1) != u'\'')))
                end += script.at(end) == u'\'' ? 2 : 1;
            current += script.mid(i, end - i + 1);
            i = end;
        } else if (dollarEnd >= 0) {
            current += script.mid(i, dollarEnd - i);
            i = dollarEnd - 1;
        } else if (c == u';') {
            if (!current.trimmed().isEmpty())
                statements << current.trimmed();
            current.clear();
        } else {
            current += c;
        }
    }
    if (!current.trimmed().isEmpty())
        statements << current.trimmed();
    return statements;
}

QString fixtureFor(const QString &profile, const QSqlDatabase &db)
{
    QString suffix;
    if (profile != QLatin1String("native")) {
        const Engine engine = SqlDialect::of(db).engine();
        if (engine == Engine::MySql)
            suffix = QStringLiteral("-mysql");
        else if (engine == Engine::Sqlite)
            suffix = QStringLiteral("-sqlite");
    }
    return QStringLiteral("fixtures/%1%2.sql").arg(profile, suffix);
}

bool runSqlScript(const QSqlDatabase &db, const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        qWarning("cannot read %s", qPrintable(path));
        return false;
    }
    for (const QString &statement : sqlStatements(QString::fromUtf8(file.readAll()))) {
        QSqlQuery query(db);
        if (!query.exec(statement)) {
            qWarning("%s: %s\n%s", qPrintable(path), qPrintable(query.lastError().text()),
                qPrintable(statement.left(300)));
            return false;
        }
    }
    return true;
}

bool exec(const QSqlDatabase &db, const QString &sql)
{
    QSqlQuery query(db);
    if (query.exec(sql))
        return true;
    qWarning("%s: %s", qPrintable(sql), qPrintable(query.lastError().text()));
    return false;
}

QString pgBossDir()
{
    return benchDir("PGBOSS_DIR", QStringLiteral("pgboss"));
}

QString pgBossMissing()
{
    const bool node = !QStandardPaths::findExecutable(QStringLiteral("node")).isEmpty();
    const bool pgBoss
        = QFile::exists(pgBossDir() + QStringLiteral("/node_modules/pg-boss/package.json"));
    if (node && pgBoss)
        return {};
    return QStringLiteral(
        "the real pg-boss test needs node (20 or newer) and pg-boss@10 in %1"
        " (scripts/bootstrap installs it: npm install --prefix %1 pg-boss@10): %2")
        .arg(pgBossDir(),
            node ? QStringLiteral("pg-boss not installed") : QStringLiteral("node not found"));
}

QJsonObject runPgBoss(const QString &script, const QStringList &arguments, QString *error)
{
    return runNode(script, arguments, QStringLiteral("PGBOSS_DIR"), pgBossDir(), error);
}

QString graphileWorkerDir()
{
    return benchDir("GRAPHILE_WORKER_DIR", QStringLiteral("graphile-worker"));
}

QString graphileWorkerMissing()
{
    const bool node = !QStandardPaths::findExecutable(QStringLiteral("node")).isEmpty();
    const bool library = QFile::exists(
        graphileWorkerDir() + QStringLiteral("/node_modules/graphile-worker/package.json"));
    if (node && library)
        return {};
    return QStringLiteral(
        "the real graphile-worker test needs node (20 or newer) and graphile-worker@0.17 in %1"
        " (scripts/bootstrap installs it: npm install --prefix %1 graphile-worker@0.17): %2")
        .arg(graphileWorkerDir(),
            node ? QStringLiteral("graphile-worker not installed")
                 : QStringLiteral("node not found"));
}

QJsonObject runGraphileWorker(const QString &script, const QStringList &arguments, QString *error)
{
    return runNode(
        script, arguments, QStringLiteral("GRAPHILE_WORKER_DIR"), graphileWorkerDir(), error);
}
