// outbox-dashboard [--db URL] [--read-only]: opens the dashboard on a database, or on the
// embedded SQLite demo database when no URL is given.
#include "dbconnection.h"
#include "demodatabase.h"
#include "mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Outbox Health"));
    QApplication::setOrganizationName(QStringLiteral("OutboxHealth"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Health dashboard for a transactional outbox."));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("db"), QStringLiteral("Database URL (sqlite:PATH or postgresql://[USER@]HOST[:PORT]/DBNAME)."), QStringLiteral("URL")});
    parser.addOption({QStringLiteral("read-only"), QStringLiteral("Open the database read-only.")});
    parser.process(app);

    QString error;
    std::unique_ptr<DbConnection> connection;
    if (parser.isSet(QStringLiteral("db"))) {
        const DatabaseUrl url = DatabaseUrl::parse(parser.value(QStringLiteral("db")), &error);
        OpenOptions options;
        options.readOnly = parser.isSet(QStringLiteral("read-only"));
        if (url.isValid())
            connection = DbConnection::open(url, options, &error);
    } else {
        connection = DemoDatabase::open(&error);
    }
    if (!connection) {
        QMessageBox::critical(nullptr, QStringLiteral("Outbox Health"), error);
        return 2;
    }
    MainWindow window(connection.get());
    window.show();
    return app.exec();
}
