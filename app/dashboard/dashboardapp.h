// Opens dashboard windows: from --db, from the connect dialog, or on the embedded demo
// database with the simulated relay running. A failed connection shows its cause and keeps
// whatever window was open.
#pragma once

#include "dbconnection.h"

#include <QObject>
#include <QPointer>

class MainWindow;

class DashboardApp : public QObject
{
    Q_OBJECT
public:
    explicit DashboardApp(QObject *parent = nullptr);

    bool openUrl(const QString &url, bool readOnly, QString *error);
    bool openDemo(QString *error);
    void askForConnection();
    // For documentation and benchmarks: after `delayMs`, select an event ("first-dead" or an
    // ID), show a tab, save a picture of the window to `path` and quit.
    void scheduleScreenshot(const QString &path, int delayMs, const QString &select, const QString &tab);

private:
    void show(std::unique_ptr<DbConnection> connection, bool readOnly, bool demo);

    QPointer<MainWindow> m_window;
};
