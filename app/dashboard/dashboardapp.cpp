#include "dashboardapp.h"

#include "connectdialog.h"
#include "demodatabase.h"
#include "eventlistmodel.h"
#include "mainwindow.h"
#include "profileconnection.h"
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
    const DatabaseUrl url = DatabaseUrl::parse(text, error);
    if (!url.isValid())
        return false;
    OpenOptions options;
    options.readOnly = readOnly;
    std::optional<OutboxProfile> profile;
    auto connection = ProfileConnection::open(url, options, profileArgument, &profile, error);
    if (!connection)
        return false;
    ConnectDialog::remember(text);
    show(std::move(connection), readOnly, false, profile);
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

void DashboardApp::show(std::unique_ptr<DbConnection> connection, bool readOnly, bool demo,
    const std::optional<OutboxProfile> &profile)
{
    if (m_window)
        m_window->close();
    WindowOptions options;
    options.readOnly = readOnly;
    options.startLiveRelay = demo;
    options.profile = profile;
    // Checked here, where the database was just opened and validated, not by the window.
    options.markedForSimulation = Schema::isMarkedForSimulation(connection->database());
    auto *window = new MainWindow(std::move(connection), options);
    window->setAttribute(Qt::WA_DeleteOnClose);
    connect(window, &MainWindow::connectRequested, this, &DashboardApp::askForConnection);
    window->openEventView(m_view.filter, m_view.sortColumn, m_view.sortOrder);
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
