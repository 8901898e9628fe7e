// The dashboard's main(), shared by the shipped outbox-dashboard and the benchmarks'
// outbox-dashboard-bench (app/dashboard-bench/), which adds its hidden options and drivers
// through Extras; the shipped binary carries no benchmark code.
#pragma once

#include <QCommandLineParser>
#include <functional>

class DashboardApp;
class MainWindow;

namespace DashboardMain {

struct Extras
{
    // True when the options run the window without a person watching: a database that cannot
    // be opened then ends the run (as with --screenshot).
    std::function<bool(const QCommandLineParser &parser)> unattended;
    // Called before the database or fleet is opened: connect what the options ask of the
    // window (whenOpen, DashboardApp::fleetOpened); false with *error ends the run (exit 2).
    std::function<bool(DashboardApp &dashboard, const QCommandLineParser &parser, QString *error)>
        schedule;
};

// outbox-dashboard's whole run: its options (DashboardOptions, and those added with
// DashboardOptions::setExtraOptions), --help and --version without a display, the window, the
// event loop. Returns the exit code.
int run(int argc, char *argv[], const Extras &extras = {});

// Calls `start` with the main window once it opened (at once when it is open already).
void whenOpen(DashboardApp &dashboard, const std::function<void(MainWindow *)> &start);

} // namespace DashboardMain
