// Stops and starts the PostgreSQL server that scripts/test started (PG_DATADIR, PG_BINDIR,
// PG_PORT from scripts/lib/pgserver.sh), so a test can take the database away mid-run the way a
// crash or a restart does and check that the program heals. Tests that use it must be RUN_SERIAL:
// every other test shares that server.
#pragma once

#include <QString>

namespace TestServer {

// Empty when the server can be stopped and started; otherwise why not (no server started by
// scripts/test, pg_ctl missing).
QString unavailableReason();
// A checkpoint (what was committed survives, as with synchronous_commit on), then an
// immediate shutdown (`pg_ctl stop -m immediate`): connections drop as in a crash.
bool stop(QString *error);
// Starts it again on the same port and data; returns when it accepts connections.
bool start(QString *error);

} // namespace TestServer
