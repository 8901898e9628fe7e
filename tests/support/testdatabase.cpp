#include "testdatabase.h"

#include "schema.h"

#include <QAtomicInteger>
#include <QCoreApplication>
#include <QSqlError>

namespace {

bool inCi()
{
    const QByteArray ci = qgetenv("CI").toLower();
    return ci == "true" || ci == "1";
}

// Runs a statement on the server's maintenance database.
bool adminExec(const QString &sql, QString *error)
{
    QString parseError;
    const DatabaseUrl admin
        = DatabaseUrl::parse(qEnvironmentVariable("OUTBOX_TEST_PG_URL"), &parseError);
    OpenOptions options;
    options.validateSchema = false;
    auto connection = DbConnection::open(admin, options, error);
    if (!connection)
        return false;
    QSqlQuery query(connection->database());
    if (query.exec(sql))
        return true;
    *error = query.lastError().text();
    return false;
}

} // namespace

void TestDatabase::addEngineColumn()
{
    QTest::addColumn<QString>("engine");
}

void TestDatabase::addEngineRows(const char *prefix)
{
    QTest::addRow("%ssqlite", prefix) << QStringLiteral("sqlite");
    QTest::addRow("%spostgresql", prefix) << QStringLiteral("postgresql");
}

std::unique_ptr<TestDatabase> TestDatabase::create(
    const QString &engine, QString *skipReason, QString *failReason)
{
    std::unique_ptr<TestDatabase> db(new TestDatabase);
    if (engine == QLatin1String("sqlite")) {
        db->m_dir = std::make_unique<QTemporaryDir>();
        db->m_url
            = QStringLiteral("sqlite:") + db->m_dir->filePath(QStringLiteral("outbox.sqlite"));
        return db;
    }
    const QString server = qEnvironmentVariable("OUTBOX_TEST_PG_URL");
    if (server.isEmpty()) {
        const QString why = QStringLiteral(
            "OUTBOX_TEST_PG_URL is not set: no PostgreSQL server (scripts/test starts one)");
        *(inCi() ? failReason : skipReason) = why;
        return nullptr;
    }
    static QAtomicInteger<int> counter;
    db->m_pgName = QStringLiteral("outbox_test_%1_%2")
                       .arg(QCoreApplication::applicationPid())
                       .arg(counter.fetchAndAddRelaxed(1));
    QString error;
    if (!adminExec(QStringLiteral("CREATE DATABASE ") + db->m_pgName, &error)) {
        *failReason = QStringLiteral("cannot create a PostgreSQL test database: ") + error;
        return nullptr;
    }
    db->m_url = server.section(QLatin1Char('/'), 0, -2) + QLatin1Char('/') + db->m_pgName;
    return db;
}

TestDatabase::~TestDatabase()
{
    QString error;
    if (!m_pgName.isEmpty())
        adminExec(QStringLiteral("DROP DATABASE IF EXISTS %1 WITH (FORCE)").arg(m_pgName), &error);
}

std::unique_ptr<DbConnection> TestDatabase::connect(bool validate) const
{
    QString error;
    OpenOptions options;
    options.validateSchema = validate;
    options.allowCreate = true;
    auto connection = DbConnection::open(DatabaseUrl::parse(m_url, &error), options, &error);
    if (!connection)
        qWarning("cannot open %s: %s", qPrintable(m_url), qPrintable(error));
    return connection;
}

std::unique_ptr<DbConnection> TestDatabase::initialise() const
{
    auto connection = connect(false);
    QString error;
    if (!connection || !Schema::create(connection->database(), &error)
        || !Schema::markForSimulation(connection->database(), &error)) {
        qWarning("cannot initialise %s: %s", qPrintable(m_url), qPrintable(error));
        return nullptr;
    }
    return connection;
}

QVariant scalar(const QSqlDatabase &db, const QString &sql)
{
    QSqlQuery query(db);
    if (!query.exec(sql) || !query.next()) {
        qWarning("query failed: %s: %s", qPrintable(sql), qPrintable(query.lastError().text()));
        return {};
    }
    return query.value(0);
}
