// Stops and starts the PostgreSQL server of the test's environment (PG_DATADIR, PG_BINDIR,
// PG_PORT from scripts/lib/pgserver.sh), or its MariaDB server (MYSQL_DATADIR, MYSQL_PORT from
// scripts/lib/mysqlserver.sh), so a test can take the database away mid-run the way a crash or a
// restart does and check that the program heals. Tests that use it are added with
// outbox_add_server_test (tests/CMakeLists.txt): they run against throwaway servers of their own
// (tests/support/with-private-servers), never the ones the other tests share.
// `engine` is a test row's engine: "postgresql" or "mysql".
#pragma once

#include <QString>

namespace TestServer {

// Empty when the server can be stopped and started; otherwise why not (no server started by
// scripts/test, pg_ctl missing).
QString unavailableReason(const QString &engine = QStringLiteral("postgresql"));
// PostgreSQL: a checkpoint (what was committed survives, as with synchronous_commit on), then an
// immediate shutdown (`pg_ctl stop -m immediate`). MariaDB: its redo log flushed (what was
// committed survives, as with innodb_flush_log_at_trx_commit=1), then kill -9. Connections
// drop as in a crash.
bool stop(QString *error);
bool stop(const QString &engine, QString *error);
// Starts it again on the same port and data; returns when it accepts connections.
bool start(QString *error);
bool start(const QString &engine, QString *error);

} // namespace TestServer
