// A fresh database per test: a temporary SQLite file, or a new database on the PostgreSQL
// server (OUTBOX_TEST_PG_URL) or the MariaDB server (OUTBOX_TEST_MYSQL_URL) that scripts/test
// started. Dropped again afterwards.
#pragma once

#include "dbconnection.h"

#include <QSqlQuery>
#include <QTemporaryDir>
#include <QVariant>
#include <QtTest>
#include <memory>

class TestDatabase
{
public:
    // Adds the "engine" column and one row per engine: "sqlite", "postgresql", "mysql".
    static void addEngineColumn();
    static void addEngineRows(const char *prefix = "");

    // Creates the database; empty `skipReason` means it is ready. Under CI a missing
    // server is reported through `failReason` instead.
    static std::unique_ptr<TestDatabase> create(
        const QString &engine, QString *skipReason, QString *failReason);
    ~TestDatabase();

    QString url() const { return m_url; }
    // Opens a connection (schema validated unless told otherwise).
    std::unique_ptr<DbConnection> connect(bool validate = true) const;
    // Opens a connection and creates the native schema, marked for simulation.
    std::unique_ptr<DbConnection> initialise() const;

private:
    TestDatabase() = default;
    QString m_url;
    QString m_pgName; // the server database's name (PostgreSQL or MySQL)
    QString m_engine = QStringLiteral("postgresql");
    std::unique_ptr<QTemporaryDir> m_dir;
};

// One value from a query with no bound values (tests only; never user input).
QVariant scalar(const QSqlDatabase &db, const QString &sql);

// Opens a fresh database for the current data row's engine, or skips/fails the test.
#define FRESH_DATABASE(var, engine)                                                                \
    QString var##Skip, var##Fail;                                                                  \
    const auto var = TestDatabase::create(engine, &var##Skip, &var##Fail);                         \
    if (!var##Fail.isEmpty())                                                                      \
        QFAIL(qPrintable(var##Fail));                                                              \
    if (!var)                                                                                      \
        QSKIP(qPrintable(var##Skip));
