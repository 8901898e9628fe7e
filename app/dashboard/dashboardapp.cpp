#include "dashboardapp.h"

#include "connectdialog.h"
#include "connectionopener.h"
#include "demodatabase.h"
#include "eventlistmodel.h"
#include "mainwindow.h"
#include "replaydialog.h"
#include "schema.h"

#include <QApplication>
#include <QTableView>
#include <QTimer>

DashboardApp::DashboardApp(QObject *parent)
    : QObject(parent)
{ }

bool DashboardApp::openUrl(const QString &text, bool readOnly, QString *error,
    const std::optional<QString> &profileArgument)
{
    const auto opened = ConnectionOpener::open(text, readOnly, profileArgument, error);
    if (!opened)
        return false;
    ConnectDialog::remember(text);
    show(*opened, false, ConnectionEnvironment::forUrl(text));
    return true;
}

bool DashboardApp::openDemo(QString *error)
{
    auto connection = DemoDatabase::open(error);
    if (!connection)
        return false;
    OpenedDatabase demo;
    demo.url = connection->url();
    demo.markedForSimulation = Schema::isMarkedForSimulation(connection->database());
    connection.reset(); // the window's workers open their own
    show(demo, true);
    return true;
}

void DashboardApp::show(
    const OpenedDatabase &database, bool demo, const ConnectionEnvironment &environment)
{
    if (m_window)
        m_window->close();
    WindowOptions options;
    options.readOnly = database.readOnly;
    options.startLiveRelay = demo;
    options.profile = database.profile;
    options.markedForSimulation = database.markedForSimulation;
    options.environment = environment;
    auto *window = new MainWindow(database.url, options);
    window->setAttribute(Qt::WA_DeleteOnClose);
    connect(window, &MainWindow::connectRequested, this, &DashboardApp::askForConnection);
    window->openEventView(m_view.filter, m_view.sortColumn, m_view.sortOrder);
    window->show();
    m_window = window;
}

// The database is opened on the opener's thread while the dialog (and the window behind it)
// stays responsive; the dialog closes only once it opened, or shows why not.
void DashboardApp::askForConnection()
{
    ConnectDialog dialog(m_window);
    std::optional<OpenedDatabase> opened;
    connect(&dialog, &ConnectDialog::openRequested, &m_opener, [this, &dialog] {
        dialog.setConnecting(true);
        m_opener.start(dialog.url(), dialog.readOnly());
    });
    connect(&m_opener, &ConnectionOpener::opened, &dialog,
        [&dialog, &opened](const OpenedDatabase &database) {
            opened = database;
            dialog.finish();
        });
    connect(&m_opener, &ConnectionOpener::failed, &dialog, [&dialog](const QString &error) {
        dialog.setConnecting(false);
        dialog.showError(error);
    });
    if (dialog.exec() != QDialog::Accepted || !opened) {
        m_opener.cancel(); // an answer still to come is dropped
        return;
    }
    ConnectDialog::remember(dialog.url(), dialog.environment());
    show(*opened, false, dialog.environment());
}

namespace {

QString mostFailures(const EventListModel *model)
{
    int best = -1;
    QString id;
    for (int row = 0; row < model->rowCount(); ++row) {
        const int failures = model->index(row, EventListModel::FailuresColumn).data().toInt();
        if (failures > best) {
            best = failures;
            id = model->eventIdAt(row);
        }
    }
    return id;
}

} // namespace

void DashboardApp::scheduleScreenshot(
    const QString &path, int delayMs, const QString &select, const QString &tab)
{
    QTimer::singleShot(delayMs, this, [this, path, select, tab] {
        if (m_window) {
            if (select == QLatin1String("first-dead"))
                m_window->selectFirstEventWithStatus(QStringLiteral("DEAD"));
            else if (select == QLatin1String("most-failures"))
                m_window->selectEvent(mostFailures(m_window->eventModel()));
            else if (!select.isEmpty())
                m_window->selectEvent(select);
            if (!tab.isEmpty())
                m_window->showTab(tab);
        }
        QWidget *subject = m_window;
        if (tab == QLatin1String("replay-dialog") && m_window) {
            // The dialog an operator sees before replaying the selected DEAD event.
            const QString id = m_window->eventView()
                                   ->currentIndex()
                                   .data(EventListModel::EventIdRole)
                                   .toString();
            auto *dialog = new ReplayDialog(QStringList {id}, 1, m_window);
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            dialog->show();
            subject = dialog;
        }
        // Let the selection and the tab paint before the picture is taken.
        QTimer::singleShot(1500, this, [subject = QPointer<QWidget>(subject), path] {
            if (subject)
                subject->grab().save(path);
            QApplication::quit();
        });
    });
}

MainWindow *DashboardApp::window() const
{
    return m_window;
}
