// outbox-dashboard's command line: its options, --help and --version (answered before any
// display exists), the event table's view they give, and the combinations it refuses.
#pragma once

#include "eventview.h"

#include <QCommandLineParser>
#include <optional>

class QCoreApplication;

namespace DashboardOptions {

void add(QCommandLineParser &parser);
// --help and --version need no display: answer them before a QApplication (which aborts
// without one) exists.
bool asksForHelpOrVersion(int argc, char *argv[]);
int printHelpOrVersion(const QCoreApplication &app); // the exit code
// The event table's view from --search, --search-mode, --state and --sort, checked before any
// window or display exists; none with *error.
std::optional<EventView> viewFromArguments(int argc, char *argv[], QString *error);
bool givesEventView(const QCommandLineParser &parser); // else the window's remembered one
// What is wrong with the options together ("--demo and --db exclude each other"), or empty.
QString conflict(const QCommandLineParser &parser);

} // namespace DashboardOptions
