#include "notesaccess.h"

#include "dbconnection.h"
#include "queryerror.h"
#include "schema.h"
#include "sqldialect.h"

#include <QMutex>

namespace {

QMutex urlMutex;
std::optional<DatabaseUrl> notesUrl;

// "the notes database sqlite:/x is not usable: WHY; it must be ...": one sentence, the URL's
// password masked.
QString refusalOf(const DatabaseUrl &url, const QString &why)
{
    return QStringLiteral("the notes database %1 cannot hold notes: %2; --notes-db must name a "
                          "native Outbox Health database at schema version %3 or later "
                          "(`outboxctl init --db URL` makes one)")
        .arg(url.toDisplayString(), DatabaseUrl::maskPasswords(why))
        .arg(OperatorNotes::NotesVersion);
}

// Empty when `db` (open) is a native database with operator_note; the refusal otherwise.
QString check(const QSqlDatabase &db, const DatabaseUrl &url)
{
    if (const QString problem = Schema::validate(db); !problem.isEmpty())
        return refusalOf(url, problem);
    QString error;
    const int version = Schema::version(db, &error);
    if (version < 0)
        return refusalOf(url, error);
    if (version < OperatorNotes::NotesVersion)
        return refusalOf(url, QStringLiteral("its schema is version %1").arg(version));
    return {};
}

// The notes connection of `outboxName`, open and checked; *refusal set (and the connection
// gone again) when it cannot be opened or is no native database at version 3.
QSqlDatabase companion(const QString &outboxName, const DatabaseUrl &url, QString *refusal)
{
    const QString name = outboxName + u"/notes"_qs;
    if (QSqlDatabase::contains(name)) {
        QSqlDatabase db = QSqlDatabase::database(name, false);
        if (db.isOpen())
            return db;
        // Closed after a failure (OperatorNotes heals so): opened again, checked again.
        QString error;
        if (DbConnection::reopen(db, &error)) {
            if (*refusal = check(db, url); refusal->isEmpty())
                return db;
        } else {
            *refusal = refusalOf(url, error);
        }
        db = QSqlDatabase();
        QSqlDatabase::removeDatabase(name);
        return {};
    }
    const SqlDialect &dialect = SqlDialect::of(url.engine());
    if (const QString missing = dialect.missingDriver(); !missing.isEmpty()) {
        *refusal = refusalOf(url, missing);
        return {};
    }
    OpenOptions options; // writes notes; never creates a SQLite file (init does)
    options.validateSchema = false; // check() says what is wrong in the notes' own words
    {
        QSqlDatabase db = dialect.addDatabase(name);
        QString error;
        if (!dialect.configure(db, url, options, &error)) {
            *refusal = refusalOf(url, error);
        } else if (!db.open()) {
            *refusal = refusalOf(url, QueryError::text(db));
        } else if (!dialect.startSession(db, &error)) {
            *refusal = refusalOf(url, error);
        } else if (*refusal = check(db, url); refusal->isEmpty()) {
            return db;
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return {};
}

} // namespace

namespace NotesAccess {

void setNotesDatabase(const DatabaseUrl &url)
{
    const QMutexLocker lock(&urlMutex);
    notesUrl = url.isValid() ? std::optional<DatabaseUrl>(url) : std::nullopt;
}

std::optional<DatabaseUrl> notesDatabase()
{
    const QMutexLocker lock(&urlMutex);
    return notesUrl;
}

OperatorNotes open(const QSqlDatabase &outboxDb, const OutboxProfile *profile)
{
    const std::optional<DatabaseUrl> url = notesDatabase();
    if (!profile || profile->isNative() || !url)
        return OperatorNotes(outboxDb, profile);
    QString refusal;
    const QSqlDatabase notesDb = companion(outboxDb.connectionName(), *url, &refusal);
    return OperatorNotes(outboxDb, profile, notesDb, refusal);
}

ProfileAudit audit(const QSqlDatabase &outboxDb, const OutboxProfile &profile)
{
    const QString outbox = ProfileAudit::outboxName(profile.name(), outboxDb);
    const std::optional<DatabaseUrl> url = notesDatabase();
    if (!url)
        return ProfileAudit({}, {}, outbox, {});
    QString refusal;
    const QSqlDatabase store = companion(outboxDb.connectionName(), *url, &refusal);
    return ProfileAudit(store, url->toDisplayString(), outbox, refusal);
}

QString auditWhere()
{
    const std::optional<DatabaseUrl> url = notesDatabase();
    return url ? ProfileAudit({}, url->toDisplayString(), {}, {}).where() : QString();
}

} // namespace NotesAccess
