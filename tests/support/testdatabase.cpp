#include "testdatabase.h"
#include "testdata.h"

#include "schema.h"

#include <QAtomicInteger>
#include <QCoreApplication>
#include <QSqlError>

namespace {

// The server scripts/test started for an engine, and the variable that names it.
const char *serverVariable(const QString &engine)
{
    return engine == QLatin1String("mysql") ? "OUTBOX_TEST_MYSQL_URL" : "OUTBOX_TEST_PG_URL";
}

// Runs a statement on the server's maintenance database.
bool adminExec(const QString &engine, const QString &sql, QString *error)
{
    QString parseError;
    const DatabaseUrl admin
        = DatabaseUrl::parse(qEnvironmentVariable(serverVariable(engine)), &parseError);
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
    QTest::addRow("%smysql", prefix) << QStringLiteral("mysql");
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
    // scripts/test's sanitizer pass leaves the MySQL rows to the dev pass (time; see
    // docs/testing.md): an engine listed here is skipped by name, also under CI.
    if (qEnvironmentVariable("OUTBOX_TEST_SKIP_ENGINES").split(QLatin1Char(',')).contains(engine)) {
        *skipReason = QStringLiteral("%1 rows run in the dev pass only (OUTBOX_TEST_SKIP_ENGINES)")
                          .arg(engine);
        return nullptr;
    }
    const bool mySql = engine == QLatin1String("mysql");
    const QString server = qEnvironmentVariable(serverVariable(engine));
    if (server.isEmpty()) {
        const QString why
            = QStringLiteral("%1 is not set: no %2 server (scripts/test starts one)")
                  .arg(QLatin1String(serverVariable(engine)),
                      mySql ? QStringLiteral("MariaDB") : QStringLiteral("PostgreSQL"));
        *(TestData::inCi() ? failReason : skipReason) = why;
        return nullptr;
    }
    db->m_engine = engine;
    static QAtomicInteger<int> counter;
    db->m_pgName = QStringLiteral("outbox_test_%1_%2")
                       .arg(QCoreApplication::applicationPid())
                       .arg(counter.fetchAndAddRelaxed(1));
    QString error;
    if (!adminExec(engine, QStringLiteral("CREATE DATABASE ") + db->m_pgName, &error)) {
        *failReason = QStringLiteral("cannot create a %1 test database: %2").arg(engine, error);
        return nullptr;
    }
    db->m_url = server.section(QLatin1Char('/'), 0, -2) + QLatin1Char('/') + db->m_pgName;
    return db;
}

TestDatabase::~TestDatabase()
{
    QString error;
    if (m_pgName.isEmpty())
        return;
    // MariaDB has no FORCE: a connection still open keeps its locks only inside a transaction,
    // and DROP DATABASE waits for those.
    const QString force
        = m_engine == QLatin1String("mysql") ? QString() : QStringLiteral(" WITH (FORCE)");
    adminExec(
        m_engine, QStringLiteral("DROP DATABASE IF EXISTS %1%2").arg(m_pgName, force), &error);
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
