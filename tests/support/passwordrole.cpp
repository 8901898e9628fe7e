#include "passwordrole.h"

#include "dbconnection.h"

#include <QFile>
#include <QSaveFile>
#include <QSqlError>
#include <QSqlQuery>
#include <sys/stat.h>
#include <unistd.h>

namespace {

constexpr const char *Rule = "host all +outbox_password_roles 127.0.0.1/32 scram-sha-256";

bool exec(const QSqlDatabase &db, const QString &sql, QString *error)
{
    QSqlQuery query(db);
    if (query.exec(sql))
        return true;
    *error = sql + u": "_qs + query.lastError().text();
    return false;
}

// The rule before every other line (the first match decides), written once; the server reads
// it again on pg_reload_conf().
bool addRule(const QSqlDatabase &db, QString *error)
{
    QSqlQuery query(db);
    if (!query.exec(u"SHOW hba_file"_qs) || !query.next()) {
        *error = u"SHOW hba_file: "_qs + query.lastError().text();
        return false;
    }
    QFile file(query.value(0).toString());
    if (!file.open(QIODevice::ReadOnly)) {
        *error = file.fileName() + u": "_qs + file.errorString();
        return false;
    }
    const QByteArray text = file.readAll();
    file.close();
    if (!text.contains(Rule)) {
        // Replaced whole (a rename): a test doing the same at once never reads a half-written
        // file, so the other roles' trust is never lost.
        // Owned and readable as before (the server runs as another user than a root test).
        const QByteArray path = QFile::encodeName(file.fileName());
        struct stat before
        {
        };
        QSaveFile replacement(file.fileName());
        if (::stat(path.constData(), &before) != 0 || !replacement.open(QIODevice::WriteOnly)
            || replacement.write(QByteArray(Rule) + '\n' + text) < 0 || !replacement.commit()
            || ::chown(path.constData(), before.st_uid, before.st_gid) != 0
            || ::chmod(path.constData(), before.st_mode & 07777) != 0) {
            *error = file.fileName() + u": "_qs + replacement.errorString();
            return false;
        }
    }
    return exec(db, u"SELECT pg_reload_conf()"_qs, error);
}

} // namespace

namespace PasswordRole {

QString create(const QString &name, const QString &password)
{
    QString error;
    const DatabaseUrl server
        = DatabaseUrl::parse(qEnvironmentVariable("OUTBOX_TEST_PG_URL"), &error);
    if (!server.isValid())
        return u"OUTBOX_TEST_PG_URL: "_qs + error;
    OpenOptions options;
    options.validateSchema = false; // the server's own database holds no outbox
    const auto connection = DbConnection::open(server, options, &error);
    if (!connection)
        return error;
    const QSqlDatabase db = connection->database();
    // Test names only, never user input.
    const bool made
        = exec(db,
              u"DO $$ BEGIN CREATE ROLE outbox_password_roles NOLOGIN; "
              "EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$"_qs,
              &error)
        && exec(db,
            u"DO $$ BEGIN CREATE ROLE %1 LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$"_qs
                .arg(name),
            &error)
        && exec(db, u"ALTER ROLE %1 PASSWORD '%2'"_qs.arg(name, password), &error)
        && exec(db, u"GRANT outbox_password_roles TO %1"_qs.arg(name), &error)
        && addRule(db, &error);
    return made ? QString() : error;
}

QString url(const QString &name, const QString &password)
{
    QString error;
    const DatabaseUrl server
        = DatabaseUrl::parse(qEnvironmentVariable("OUTBOX_TEST_PG_URL"), &error);
    return u"postgresql://%1:%2@%3:%4/%5"_qs.arg(name, password, server.host())
        .arg(server.port())
        .arg(server.databaseName());
}

} // namespace PasswordRole
