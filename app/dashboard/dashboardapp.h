// Opens dashboard windows: from --db, from the connect dialog, or on the embedded demo
// database with the simulated relay running. A failed connection shows its cause and keeps
// whatever window was open.
#pragma once

#include "connectionenvironment.h"
#include "connectionopener.h"
#include "eventview.h"
#include "outboxprofile.h"

#include <QObject>
#include <QPointer>

class MainWindow;

class DashboardApp : public QObject
{
    Q_OBJECT
public:
    explicit DashboardApp(QObject *parent = nullptr);

    // `profile`: a built-in profile's name or a profile file; none = detected (native whenever
    // its tables exist). ProfileConnection::open, the same rules as outboxctl --profile.
    bool openUrl(const QString &url, bool readOnly, QString *error,
        const std::optional<QString> &profile = std::nullopt);
    bool openDemo(QString *error);
    void askForConnection();
    // The event table's filter and sort in every window opened from now on.
    void setEventView(const EventView &view) { m_view = view; }
    // For documentation and benchmarks: after `delayMs`, select an event ("first-dead" or an
    // ID), show a tab, save a picture of the window to `path` and quit.
    void scheduleScreenshot(
        const QString &path, int delayMs, const QString &select, const QString &tab);
    MainWindow *window() const; // the open window, if any

private:
    void show(
        const OpenedDatabase &database, bool demo, const ConnectionEnvironment &environment = {});

    QPointer<MainWindow> m_window;
    ConnectionOpener m_opener; // the Connect… dialog's, off the GUI thread
    EventView m_view;
};
