// SIGINT and SIGTERM end the event loop (QCoreApplication::quit) instead of killing the
// process, so a long-running command (`outboxctl serve`) stops its threads and closes its
// connections before it exits. The handler only writes a byte to a pipe (async-signal-safe);
// a QSocketNotifier on the main thread reads it and quits.
#pragma once

class QObject;

namespace QuitOnSignal {

// Installs the handlers; the notifier is a child of `parent`. False when the pipe cannot be
// made (the default handlers stay).
bool install(QObject *parent);

} // namespace QuitOnSignal
