// outbox-dashboard [--db URL] [--read-only]: opens the dashboard on a database, or on the
// embedded SQLite demo database with the simulated relay running when no URL is given.
#include "dashboardapp.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>
#include <QSettings>
#include <QTextStream>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Outbox Health"));
    QApplication::setOrganizationName(QStringLiteral("OutboxHealth"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Health dashboard for a transactional outbox."));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("db"), QStringLiteral("Database URL (sqlite:PATH or postgresql://[USER@]HOST[:PORT]/DBNAME)."), QStringLiteral("URL")});
    parser.addOption({QStringLiteral("read-only"), QStringLiteral("Open the database read-only (also the setting connection/readOnly).")});
    parser.addOption({QStringLiteral("screenshot"), QStringLiteral("Save a picture of the window to FILE, then quit."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("screenshot-after-ms"), QStringLiteral("Wait this long before the picture (default 8000)."), QStringLiteral("MS"), QStringLiteral("8000")});
    parser.addOption({QStringLiteral("select"), QStringLiteral("With --screenshot: an event ID to select, first-dead or most-failures."), QStringLiteral("ID")});
    parser.addOption({QStringLiteral("tab"), QStringLiteral("With --screenshot: detail, charts, lifecycle, audit or replay-dialog."), QStringLiteral("NAME")});
    parser.process(app);

    DashboardApp dashboard;
    QString error;
    const bool opened = parser.isSet(QStringLiteral("db"))
        ? dashboard.openUrl(parser.value(QStringLiteral("db")),
                            parser.isSet(QStringLiteral("read-only"))
                                || QSettings().value(QStringLiteral("connection/readOnly")).toBool(),
                            &error)
        : dashboard.openDemo(&error);
    if (!opened) {
        QTextStream(stderr) << "outbox-dashboard: " << error << Qt::endl;
        if (!parser.isSet(QStringLiteral("screenshot")))
            QMessageBox::critical(nullptr, QStringLiteral("Outbox Health"), error);
        return 2;
    }
    if (parser.isSet(QStringLiteral("screenshot")))
        dashboard.scheduleScreenshot(parser.value(QStringLiteral("screenshot")),
                                     parser.value(QStringLiteral("screenshot-after-ms")).toInt(),
                                     parser.value(QStringLiteral("select")), parser.value(QStringLiteral("tab")));
    return app.exec();
}
