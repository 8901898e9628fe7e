#include "dashboardapp.h"

#include "connectdialog.h"
#include "connectionopener.h"
#include "demodatabase.h"
#include "editactions.h"
#include "eventlistmodel.h"
#include "fleetmodel.h"
#include "fleetwindow.h"
#include "mainwindow.h"
#include "operatoractions.h"
#include "plainmessage.h"
#include "plaintext.h"
#include "policylabpage.h"
#include "replaydialog.h"
#include "schema.h"
#include "startwindow.h"
#include "windowsettings.h"

#include <QApplication>
#include <QFileDialog>
#include <QTableView>
#include <QTextStream>
#include <QThread>
#include <QTimer>

DashboardApp::DashboardApp(QObject *parent)
    : QObject(parent)
{
    connect(&m_startOpener, &ConnectionOpener::opened, this, &DashboardApp::onStartOpened);
    connect(&m_startOpener, &ConnectionOpener::failed, this, &DashboardApp::onStartFailed);
}

DashboardApp::~DashboardApp()
{
    // Before QApplication goes: the window's workers stop with it (a snapshot still running
    // on its thread finishes first), while the SQL drivers are still loaded.
    if (m_demoThread)
        m_demoThread->wait(); // the demo database being made: a short local write
    delete m_window;
    delete m_start;
    for (const QPointer<MainWindow> &window : std::as_const(m_fleetWindows))
        delete window;
    for (const QPointer<FleetWindow> &fleet : std::as_const(m_fleets))
        delete fleet;
}

void DashboardApp::openUrl(
    const QString &text, bool readOnly, const std::optional<QString> &profileArgument)
{
    m_startUrl = text;
    m_startProfile = profileArgument.value_or(QString());
    m_startReadOnly = readOnly;
    m_lastStartError.clear();
    QString error;
    const DatabaseUrl url = DatabaseUrl::parse(text, &error);
    ensureStartWindow()->setOpening(
        url.isValid() ? url.toStorableString() : DatabaseUrl::maskPasswords(text));
    if (!m_window)
        m_start->show();
    m_startOpener.start(text, readOnly, profileArgument);
}

void DashboardApp::openLast(bool readOnly)
{
    const std::optional<LastDatabase> last = WindowSettings::lastDatabase();
    if (!last || last->demo) {
        openDemo();
        return;
    }
    openUrl(last->url, readOnly || last->readOnly,
        last->profile.isEmpty() ? std::nullopt : std::optional<QString>(last->profile));
}

void DashboardApp::openDemo()
{
    if (m_demoThread)
        return; // already under way
    m_startOpener.cancel(); // the demo supersedes a database still being opened
    m_startUrl.clear();
    m_startProfile.clear();
    ensureStartWindow()->setOpening(tr("the demo"));
    if (!m_window)
        m_start->show();
    // Deleting and recreating a SQLite file is database work: never on the GUI thread. The
    // connection is opened and closed on that thread; only values come back.
    auto opened = std::make_shared<std::optional<OpenedDatabase>>();
    auto error = std::make_shared<QString>();
    m_demoThread.reset(QThread::create([opened, error] {
        auto connection = DemoDatabase::open(error.get());
        if (!connection)
            return;
        OpenedDatabase demo;
        demo.url = connection->url();
        demo.markedForSimulation = Schema::isMarkedForSimulation(connection->database());
        *opened = demo;
    }));
    m_demoThread->setObjectName(QStringLiteral("outbox-demo"));
    connect(m_demoThread.get(), &QThread::finished, this, [this, opened, error] {
        m_demoThread->wait(); // `finished` comes just before the thread has fully ended
        m_demoThread.reset();
        if (*opened)
            show(**opened, true);
        else
            onStartFailed(tr("the demo database could not be made: %1").arg(*error));
    });
    m_demoThread->start();
}

void DashboardApp::onStartOpened(const OpenedDatabase &database)
{
    ConnectDialog::remember(m_startUrl);
    show(database, false, ConnectionEnvironment::forUrl(m_startUrl));
    LastDatabase last;
    last.url = m_startUrl;
    last.profile = m_startProfile;
    last.readOnly = database.readOnly;
    WindowSettings::saveLastDatabase(last);
}

// Never a modal error and exit: the start window names the cause and offers Connect….
void DashboardApp::onStartFailed(const QString &rawError)
{
    const QString error = DatabaseUrl::maskPasswords(rawError);
    if (std::exchange(m_lastStartError, error) != error)
        QTextStream(stderr) << "outbox-dashboard: " << PlainText::escaped(error) << Qt::endl;
    emit openFailed(error);
    if (m_exitOnFailure) {
        QCoreApplication::exit(2);
        return;
    }
    QString parseError;
    const DatabaseUrl url = DatabaseUrl::parse(m_startUrl, &parseError);
    // A database that cannot be reached is tried again on the banner's backoff; the demo, a
    // local file made afresh, only by Retry.
    ensureStartWindow()->setFailed(url.isValid() ? url.toStorableString()
            : m_startUrl.isEmpty()               ? tr("the demo")
                                                 : tr("the database"),
        error, url.isValid());
    if (!m_window)
        m_start->show();
}

void DashboardApp::retryStart()
{
    if (m_window)
        return; // a window took over meanwhile
    if (m_asking) {
        m_retryAfterAsking = true; // the user may be opening another database
        return;
    }
    if (m_startUrl.isEmpty()) {
        openDemo();
        return;
    }
    m_start->setRetrying();
    m_startOpener.start(m_startUrl, m_startReadOnly,
        m_startProfile.isEmpty() ? std::nullopt : std::optional<QString>(m_startProfile));
}

StartWindow *DashboardApp::ensureStartWindow()
{
    if (!m_start) {
        m_start = new StartWindow;
        connect(m_start, &StartWindow::connectRequested, this, &DashboardApp::askForConnection);
        connect(m_start, &StartWindow::demoRequested, this, &DashboardApp::openDemo);
        connect(m_start, &StartWindow::retryRequested, this, &DashboardApp::retryStart);
    }
    return m_start;
}

void DashboardApp::connectWindow(MainWindow *window)
{
    connect(window, &MainWindow::connectRequested, this, &DashboardApp::askForConnection);
    connect(window, &MainWindow::fleetRequested, this, &DashboardApp::askForFleet);
}

void DashboardApp::openFleet(const QString &path, QWidget *errorParent)
{
    newFleet(errorParent)->openFile(path);
}

void DashboardApp::openFleetPrometheus(const QString &url, const QString &path)
{
    newFleet(nullptr)->openPrometheus(url, path);
}

FleetWindow *DashboardApp::newFleet(QWidget *errorParent)
{
    auto *fleet = new FleetWindow;
    fleet->setAttribute(Qt::WA_DeleteOnClose);
    connect(fleet, &FleetWindow::opened, this, [this, fleet] { showFleet(fleet); });
    const QPointer<QWidget> parent(errorParent);
    connect(fleet, &FleetWindow::openFailed, this, [this, fleet, parent](const QString &error) {
        fleet->deleteLater();
        emit fleetOpenFailed(error);
        if (parent)
            PlainMessage::warning(parent, tr("Open fleet"), error);
    });
    return fleet;
}

void DashboardApp::showFleet(FleetWindow *fleet)
{
    connect(fleet, &FleetWindow::fleetRequested, this, &DashboardApp::askForFleet);
    connect(fleet, &FleetWindow::outboxOpenRequested, this,
        [this, fleet](int row) { openFleetOutbox(fleet, row); });
    fleet->show();
    m_fleets.removeAll(nullptr);
    m_fleets.append(fleet);
    if (m_start)
        m_start->hide();
    if (m_screenshot)
        takeScreenshot(*std::exchange(m_screenshot, std::nullopt));
    emit fleetOpened(fleet);
}

void DashboardApp::askForFleet()
{
    QWidget *parent = qobject_cast<QWidget *>(sender());
    const QString path = QFileDialog::getOpenFileName(parent, tr("Open fleet"), QString(),
        tr("Fleet files (*.conf *.txt *.fleet);;All files (*)"));
    if (!path.isEmpty())
        openFleet(path, parent);
}

FleetWindow *DashboardApp::fleetWindow() const
{
    for (qsizetype i = m_fleets.size() - 1; i >= 0; --i) {
        if (m_fleets.at(i))
            return m_fleets.at(i);
    }
    return nullptr;
}

// Validated by the window's own workers (schema checked as they open); the URL stays in memory.
// An outbox already open in a window is raised rather than opened twice.
MainWindow *DashboardApp::openFleetOutbox(FleetWindow *fleet, int row)
{
    const FleetModel *model = fleet->model();
    m_fleetWindows.removeAll(nullptr);
    for (const QPointer<MainWindow> &open : std::as_const(m_fleetWindows)) {
        if (open->url().toStorableString() == model->entryAt(row).url.toStorableString()
            && open->outboxName() == model->nameAt(row)) {
            open->showNormal();
            open->raise();
            open->activateWindow();
            return open;
        }
    }
    WindowOptions options;
    options.readOnly = m_readOnly;
    options.profile = model->profileAt(row);
    options.outboxName = model->nameAt(row);
    const DatabaseUrl &url = model->entryAt(row).url;
    options.environment = ConnectionEnvironment::forUrl(url.toStorableString());
    options.cdcSlot = model->entryAt(row).cdcSlot.value_or(QString()); // the line's `;cdc-slot=`
    auto *window = new MainWindow(url, options);
    window->setAttribute(Qt::WA_DeleteOnClose);
    connectWindow(window);
    window->show();
    m_fleetWindows.removeAll(nullptr);
    m_fleetWindows.append(window);
    return window;
}

void DashboardApp::show(
    const OpenedDatabase &database, bool demo, const ConnectionEnvironment &environment)
{
    if (m_window)
        m_window->close();
    if (demo) {
        LastDatabase last;
        last.demo = true;
        WindowSettings::saveLastDatabase(last);
    }
    WindowOptions options;
    options.readOnly = database.readOnly;
    options.startLiveRelay = demo;
    options.profile = database.profile;
    options.markedForSimulation = database.markedForSimulation;
    options.environment = environment;
    options.cdcSlot = m_cdcSlot;
    auto *window = new MainWindow(database.url, options);
    window->setAttribute(Qt::WA_DeleteOnClose);
    connectWindow(window);
    if (m_view)
        window->openEventView(m_view->filter, m_view->sortColumn, m_view->sortOrder);
    if (m_startPlace) {
        const auto [eventId, page] = *std::exchange(m_startPlace, std::nullopt);
        if (!eventId.isEmpty())
            window->openEvent(eventId);
        if (!page.isEmpty())
            window->showPage(page);
    }
    window->show();
    m_window = window;
    if (m_start)
        m_start->hide();
    emit windowOpened(window);
    if (m_screenshot)
        takeScreenshot(*std::exchange(m_screenshot, std::nullopt));
}

// The database is opened on the opener's thread while the dialog (and the window behind it)
// stays responsive; the dialog closes only once it opened, or shows why not.
void DashboardApp::askForConnection()
{
    QWidget *parent = m_window ? static_cast<QWidget *>(m_window) : m_start.data();
    ConnectDialog dialog(parent);
    // The last database's profile with its URL, as offered first.
    if (const auto last = WindowSettings::lastDatabase(); last && last->url == dialog.url())
        dialog.setProfile(last->profile);
    std::optional<OpenedDatabase> opened;
    connect(&dialog, &ConnectDialog::openRequested, &m_opener, [this, &dialog] {
        dialog.setConnecting(true);
        m_opener.start(dialog.url(), dialog.readOnly(), dialog.profile());
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
    m_asking = true;
    const bool accepted = dialog.exec() == QDialog::Accepted && opened;
    m_asking = false;
    if (!accepted) {
        m_opener.cancel(); // an answer still to come is dropped
        if (std::exchange(m_retryAfterAsking, false))
            retryStart();
        return;
    }
    m_retryAfterAsking = false;
    m_startOpener.cancel(); // a start-up open still under way is superseded
    ConnectDialog::remember(dialog.url(), dialog.environment());
    show(*opened, false, dialog.environment());
    LastDatabase last;
    last.url = dialog.url();
    last.profile = dialog.profile().value_or(QString());
    last.readOnly = opened->readOnly;
    WindowSettings::saveLastDatabase(last);
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
    const Screenshot shot {path, delayMs, select, tab};
    if (m_window || fleetWindow())
        takeScreenshot(shot);
    else
        m_screenshot = shot; // once the window opened
}

void DashboardApp::takeScreenshot(const Screenshot &shot)
{
    QTimer::singleShot(
        shot.delayMs, this, [this, path = shot.path, select = shot.select, tab = shot.tab] {
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
            if (!subject)
                subject = fleetWindow();
            if (tab == QLatin1String("replay-dialog") && m_window) {
                // The dialog an operator sees before replaying the selected DEAD event.
                const QString id = m_window->eventView()
                                       ->currentIndex()
                                       .data(EventListModel::EventIdRole)
                                       .toString();
                ReplayDialog *dialog = m_window->operatorActions()->previewDialog({id});
                dialog->show();
                subject = dialog;
            } else if (tab == QLatin1String("replay-all-dialog") && m_window) {
                // Replay all matching…: the plan with what it leaves out (on hold, ...).
                ReplayDialog *dialog = m_window->operatorActions()->previewMatchingDialog();
                dialog->show();
                subject = dialog;
            }
            const bool editDialog = tab == QLatin1String("edit-dialog") && m_window;
            if (editDialog) // opens (modal) once the worker has read the payload
                m_window->editActions()->editEvent(m_window->eventView()
                                                       ->currentIndex()
                                                       .data(EventListModel::EventIdRole)
                                                       .toString());
            // Let the selection and the tab paint before the picture is taken; the Policy lab
            // once its simulation has answered.
            const auto grabLater = [this, subject = QPointer<QWidget>(subject), path, editDialog] {
                QTimer::singleShot(1500, this, [subject, path, editDialog] {
                    // The edit dialog runs its own event loop; quit() ends it too.
                    QWidget *shown
                        = editDialog ? QApplication::activeModalWidget() : subject.data();
                    if (shown)
                        shown->grab().save(path);
                    QApplication::quit();
                });
            };
            PolicyLabPage *lab = m_window ? m_window->policyLab() : nullptr;
            if (tab == QLatin1String("policy") && lab && lab->isSimulating())
                connect(lab, &PolicyLabPage::simulated, this, grabLater, Qt::SingleShotConnection);
            else
                grabLater();
        });
}

StartWindow *DashboardApp::startWindow() const
{
    return m_start;
}

MainWindow *DashboardApp::window() const
{
    return m_window;
}
