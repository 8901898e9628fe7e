// What the window tests share. Header-only: outboxtestsupport links no widgets; the tests that
// include it link outboxviews themselves.
#pragma once

#include "databaseurl.h"
#include "dbconnection.h"
#include "eventlistmodel.h"
#include "mainwindow.h"

#include <QStringList>

// Window options for a real outbox: no teaching panel, no simulated relay.
inline WindowOptions simulationOff()
{
    WindowOptions options;
    options.markedForSimulation = false;
    return options;
}

// The event IDs the table shows, sorted.
inline QStringList tableIds(const MainWindow &window)
{
    QStringList ids;
    for (int row = 0; row < window.eventModel()->rowCount(); ++row)
        ids << window.eventModel()->eventIdAt(row);
    ids.sort();
    return ids;
}

// The window as read-only mode opens it on `url`: its connection read-only, and `options` with
// readOnly set (every write action disabled, saying why).
class ReadOnlyWindow : public MainWindow
{
public:
    explicit ReadOnlyWindow(const QString &url, WindowOptions options = {})
        : MainWindow(open(url), readOnly(options))
    { }

private:
    static std::unique_ptr<DbConnection> open(const QString &url)
    {
        QString error;
        OpenOptions options;
        options.readOnly = true;
        return DbConnection::open(DatabaseUrl::parse(url, &error), options, &error);
    }
    static WindowOptions readOnly(WindowOptions options)
    {
        options.readOnly = true;
        return options;
    }
};
