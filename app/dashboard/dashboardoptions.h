// outbox-dashboard's command line: its options, --help and --version (answered before any
// display exists), the event table's view they give, and the combinations it refuses.
#pragma once

#include "eventview.h"

#include <QCommandLineParser>
#include <functional>
#include <optional>

class DashboardApp;
class QCoreApplication;

namespace DashboardOptions {

void add(QCommandLineParser &parser);
// Options of a program built on the dashboard (the benchmarks' outbox-dashboard-bench), which
// add() adds after the dashboard's own; set before the first add().
void setExtraOptions(const std::function<void(QCommandLineParser &)> &add);
// --help and --version need no display: answer them before a QApplication (which aborts
// without one) exists.
bool asksForHelpOrVersion(int argc, char *argv[]);
int printHelpOrVersion(const QCoreApplication &app); // the exit code
// The arguments of the command line.
QStringList argumentsOf(int argc, char *argv[]);
// A link given as the one argument (outbox-health:open?…, as the desktop hands it on for the
// URL scheme): *arguments becomes the program's name and the options the link stands for
// (ViewLink); without a link it stays empty. False with *error (never a password) when the link
// is refused or an argument is neither an option nor a link. Before any display exists.
bool argumentsOfLink(int argc, char *argv[], QStringList *arguments, QString *error);
// The event table's view from --search, --search-mode, --state and --sort, checked before any
// window or display exists; none with *error.
std::optional<EventView> viewFromArguments(const QStringList &arguments, QString *error);
bool givesEventView(const QCommandLineParser &parser); // else the window's remembered one
// What the options ask of the first window: the event table on `view` (when givesEventView),
// the event of --select and the page of --tab (without --screenshot, which takes them itself).
void applyView(DashboardApp &dashboard, const QCommandLineParser &parser, const EventView &view);
// What is wrong with the options together ("--demo and --db exclude each other"), or empty.
QString conflict(const QCommandLineParser &parser);

} // namespace DashboardOptions
