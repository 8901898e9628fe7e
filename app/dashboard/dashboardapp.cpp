#include "dashboardapp.h"

#include "connectdialog.h"
#include "demodatabase.h"
#include "mainwindow.h"

#include <QApplication>
#include <QTimer>

DashboardApp::DashboardApp(QObject *parent)
    : QObject(parent)
{
}

bool DashboardApp::openUrl(const QString &text, bool readOnly, QString *error)
{
    const DatabaseUrl url = DatabaseUrl::parse(text, error);
    if (!url.isValid())
        return false;
    OpenOptions options;
    options.readOnly = readOnly;
    auto connection = DbConnection::open(url, options, error);
    if (!connection)
        return false;
    ConnectDialog::remember(text);
    show(std::move(connection), readOnly, false);
    return true;
}

bool DashboardApp::openDemo(QString *error)
{
    auto connection = DemoDatabase::open(error);
    if (!connection)
        return false;
    show(std::move(connection), false, true);
    return true;
}

void DashboardApp::show(std::unique_ptr<DbConnection> connection, bool readOnly, bool demo)
{
    if (m_window)
        m_window->close();
    WindowOptions options;
    options.readOnly = readOnly;
    options.startLiveRelay = demo;
    auto *window = new MainWindow(std::move(connection), options);
    window->setAttribute(Qt::WA_DeleteOnClose);
    connect(window, &MainWindow::connectRequested, this, &DashboardApp::askForConnection);
    window->show();
    m_window = window;
}

void DashboardApp::askForConnection()
{
    ConnectDialog dialog(m_window);
    while (dialog.exec() == QDialog::Accepted) {
        QString error;
        if (openUrl(dialog.url(), dialog.readOnly(), &error))
            return;
        dialog.showError(error);
    }
}

void DashboardApp::scheduleScreenshot(const QString &path, int delayMs, const QString &select, const QString &tab)
{
    QTimer::singleShot(delayMs, this, [this, path, select, tab] {
        if (m_window) {
            if (select == QLatin1String("first-dead"))
                m_window->selectFirstEventWithStatus(QStringLiteral("DEAD"));
            else if (!select.isEmpty())
                m_window->selectEvent(select);
            if (!tab.isEmpty())
                m_window->showTab(tab);
        }
        // Let the selection and the tab paint before the picture is taken.
        QTimer::singleShot(1500, this, [this, path] {
            if (m_window)
                m_window->grab().save(path);
            QApplication::quit();
        });
    });
}
