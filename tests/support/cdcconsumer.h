// A real change-data-capture relay for tests: a publication of one table and a `pgoutput`
// logical replication slot (a unique name per consumer) on a PostgreSQL test database, and
// `pg_recvlogical` (shipped with PostgreSQL) streaming from it as a connector such as Debezium
// does. start() runs the client, so the slot turns active and its confirmed position follows
// the WAL; stop() ends it, so the slot turns inactive and retains WAL as rows are written.
// The destructor stops it and drops the slot and the publication (a database with a slot
// cannot be dropped, so destroy the consumer before its TestDatabase).
#pragma once

#include "dbconnection.h"

#include <QProcess>
#include <QSqlDatabase>
#include <QString>
#include <memory>

class CdcConsumer
{
public:
    // On the database of `url` (a postgresql:// URL), for `table`; error() says what failed.
    CdcConsumer(const QString &url, const QString &table);
    ~CdcConsumer();
    CdcConsumer(const CdcConsumer &) = delete;
    CdcConsumer &operator=(const CdcConsumer &) = delete;

    QString error() const { return m_error; }
    QString slot() const { return m_slot; }
    // pg_recvlogical from PG_BINDIR, PATH or /usr/lib/postgresql/*/bin (highest); empty if none.
    static QString clientPath();

    // Runs the client; false with error() when it does not start.
    bool start();
    // Ends the client (SIGTERM, as a connector shutting down) and waits for it to exit.
    void stop();
    bool isRunning() const { return m_client.state() != QProcess::NotRunning; }

private:
    bool exec(const QString &sql);
    void drop();

    QString m_url;
    QString m_slot;
    QString m_publication;
    QString m_error;
    std::unique_ptr<DbConnection> m_connection;
    QProcess m_client;
};

// Debezium's outbox event router's default table (the columns tests/fixtures/debezium.sql has).
QString routerOutboxTableSql();
// `count` rows into that table as a service writes them, each event about 1 KB of JSON.
bool insertRouterEvents(const QSqlDatabase &db, int count);
