#include "readerrole.h"

#include "fixturescript.h"

#include <QFile>
#include <QProcess>
#include <QSqlError>
#include <QSqlQuery>
#include <QUrl>
#include <sys/stat.h>
#include <unistd.h>

namespace {

QString quotedIdentifier(const QString &name)
{
    return u"\""_qs + QString(name).replace(u"\""_qs, u"\"\""_qs) + u"\""_qs;
}

QString quotedLiteral(const QString &name)
{
    return u"'"_qs + QString(name).replace(u"'"_qs, u"''"_qs) + u"'"_qs;
}

} // namespace

ReaderRole::ReaderRole(
    const QString &engine, const QString &url, const QSqlDatabase &root, const QString &name)
    : m_engine(engine)
    , m_root(root)
    , m_name(name)
{
    QString error;
    const DatabaseUrl parsed = DatabaseUrl::parse(url, &error);
    if (engine == u"sqlite"_qs) {
        m_path = parsed.path();
        m_url = url;
        m_ready = makeUnwritable();
        return;
    }
    m_database = parsed.databaseName();
    const QString user = QString::fromUtf8(QUrl::toPercentEncoding(name));
    // Put together rather than arg(): the encoded name holds '%' escapes.
    m_url = url.section(u':', 0, 0) + u"://"_qs + user + u'@' + parsed.host() + u':'
        + QString::number(parsed.port()) + u'/' + m_database;
    if (engine == u"postgresql"_qs) {
        m_ready = exec(root, u"CREATE ROLE %1 LOGIN"_qs.arg(quotedIdentifier(name)))
            && exec(root,
                u"GRANT SELECT ON ALL TABLES IN SCHEMA public TO %1"_qs.arg(
                    quotedIdentifier(name)));
    } else {
        m_ready = exec(root, u"CREATE USER %1"_qs.arg(account()))
            && exec(root,
                u"GRANT SELECT ON %1.* TO %2"_qs.arg(quotedIdentifier(m_database), account()));
    }
}

ReaderRole::~ReaderRole()
{
    if (m_engine == u"sqlite"_qs) {
        QProcess::execute(u"chattr"_qs, {u"-i"_qs, m_path});
        ::chmod(QFile::encodeName(m_path).constData(), 0644);
    } else if (m_engine == u"postgresql"_qs) {
        disconnect();
        exec(m_root, u"DROP OWNED BY %1"_qs.arg(quotedIdentifier(m_name)));
        exec(m_root, u"DROP ROLE %1"_qs.arg(quotedIdentifier(m_name)));
    } else {
        exec(m_root, u"DROP USER IF EXISTS %1"_qs.arg(account()));
    }
}

bool ReaderRole::grant(const QString &privilege, const QStringList &tables)
{
    if (m_engine == u"sqlite"_qs) {
        QProcess::execute(u"chattr"_qs, {u"-i"_qs, m_path});
        return ::chmod(QFile::encodeName(m_path).constData(), 0644) == 0;
    }
    for (const QString &table : tables) {
        const QString sql = m_engine == u"postgresql"_qs
            ? u"GRANT %1 ON %2 TO %3"_qs.arg(privilege, table, quotedIdentifier(m_name))
            : u"GRANT %1 ON %2.%3 TO %4"_qs.arg(
                privilege, quotedIdentifier(m_database), table, account());
        if (!exec(m_root, sql))
            return false;
    }
    // A serial column's sequence, for INSERT on PostgreSQL.
    return m_engine != u"postgresql"_qs || privilege != u"INSERT"_qs
        || exec(m_root,
            u"GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO %1"_qs.arg(
                quotedIdentifier(m_name)));
}

void ReaderRole::disconnect()
{
    QSqlQuery query(m_root);
    if (m_engine == u"postgresql"_qs) {
        query.prepare(u"SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                      " WHERE usename = :name"_qs);
        query.bindValue(u":name"_qs, m_name);
        query.exec();
        return;
    }
    query.prepare(u"SELECT ID FROM information_schema.PROCESSLIST WHERE USER = :name"_qs);
    query.bindValue(u":name"_qs, m_name);
    query.exec();
    QStringList ids;
    while (query.next())
        ids << query.value(0).toString();
    for (const QString &id : ids)
        QSqlQuery(m_root).exec(u"KILL "_qs + id);
}

QString ReaderRole::refusal(const QString &privilege, const QString &table) const
{
    if (m_engine == u"sqlite"_qs)
        return u"the database file is read-only: this connection may not %1 %2"_qs.arg(
            privilege, table);
    return u"the role '%1' may not %2 %3"_qs.arg(m_name, privilege, table);
}

QString ReaderRole::account() const
{
    return quotedLiteral(m_name) + u"@'127.0.0.1'"_qs;
}

bool ReaderRole::makeUnwritable()
{
    if (QProcess::execute(u"chattr"_qs, {u"+i"_qs, m_path}) == 0)
        return true;
    return ::geteuid() != 0 && ::chmod(QFile::encodeName(m_path).constData(), 0444) == 0;
}

QString roleName(const QString &url, const QString &prefix)
{
    QString error;
    return prefix + DatabaseUrl::parse(url, &error).databaseName().right(12);
}

std::unique_ptr<DbConnection> openAs(const QString &url)
{
    QString error;
    auto connection = DbConnection::open(DatabaseUrl::parse(url, &error), OpenOptions {}, &error);
    if (!connection)
        qWarning("cannot open as the reader: %s", qPrintable(error));
    return connection;
}
