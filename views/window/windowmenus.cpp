#include "windowmenus.h"

#include "alertbar.h"
#include "alertdecider.h"
#include "copylinkaction.h"
#include "diagnosispage.h"
#include "editactions.h"
#include "eventspage.h"
#include "eventtablemenu.h"
#include "filterbar.h"
#include "mainmenus.h"
#include "mainwindow.h"
#include "notesactions.h"
#include "operatoractions.h"
#include "pagenavigator.h"
#include "reopenactions.h"
#include "resolveactions.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QMenuBar>
#include <QMessageBox>

namespace {

QAction *named(MainWindow &window, const QString &text, const char *name)
{
    auto *action = new QAction(text, &window);
    action->setObjectName(QLatin1String(name));
    return action;
}

void addSearchActions(MainWindow &window, MenuActions &actions)
{
    actions.find = named(window, QObject::tr("&Find event…"), "findAction");
    actions.find->setShortcut(QKeySequence::Find);
    QObject::connect(actions.find, &QAction::triggered, &window, [&window] {
        window.showPage(EventsPage::Key);
        window.eventsPage()->focusFind(); // an ID, found whatever the filters
    });
    actions.search = named(window, QObject::tr("&Search this page"), "searchAction");
    actions.search->setShortcut(Qt::Key_Slash);
    QObject::connect(actions.search, &QAction::triggered, &window, &MainWindow::focusSearch);
    actions.clearSearch = named(window, QObject::tr("&Clear search"), "clearSearchAction");
    actions.clearSearch->setShortcut(Qt::Key_Escape);
    QObject::connect(actions.clearSearch, &QAction::triggered, window.filterBar(),
        &FilterBar::clearSearch);
}

QAction *muteAction(MainWindow &window)
{
    const QString outbox = window.outboxName();
    QAction *mute = named(window, QObject::tr("&Mute desktop alerts for %1").arg(outbox),
        "muteAlertsAction");
    mute->setCheckable(true);
    mute->setData(outbox);
    mute->setChecked(AlertDecider::isMuted(outbox));
    QObject::connect(mute, &QAction::toggled, &window, [&window, outbox](bool muted) {
        AlertDecider::setMuted(outbox, muted);
        if (muted && window.alertBar())
            window.alertBar()->removeAlerts(outbox);
    });
    return mute;
}

void addWindowActions(MainWindow &window, MenuActions &actions)
{
    actions.openFleet = named(window, QObject::tr("Open &fleet…"), "openFleetAction");
    QObject::connect(
        actions.openFleet, &QAction::triggered, &window, &MainWindow::fleetRequested);
    actions.quit = named(window, QObject::tr("&Quit"), "quitAction");
    actions.quit->setShortcut(QKeySequence::Quit);
    actions.quit->setShortcutContext(Qt::ApplicationShortcut);
    QObject::connect(actions.quit, &QAction::triggered, qApp, &QApplication::closeAllWindows);
    actions.copyLink = new CopyLinkAction(&window);
    actions.muteAlerts = muteAction(window);
    actions.about = named(window, QObject::tr("&About Outbox Health"), "aboutAction");
    QObject::connect(actions.about, &QAction::triggered, &window, [&window] {
        QMessageBox::about(&window, QObject::tr("About Outbox Health"), window.aboutText());
    });
}

void addWrites(MainWindow &window, MenuActions &actions)
{
    actions.exportEvents = window.operatorActions()->exportEventsAction();
    actions.exportEvents->setShortcut(QObject::tr("Ctrl+E"));
    actions.exportAudit = window.operatorActions()->exportAuditAction();
    actions.replaySelected = window.operatorActions()->replaySelectedAction();
    actions.replayMatching = window.operatorActions()->replayMatchingAction();
    actions.resolveSelected = window.resolveActions()->resolveSelectedAction();
    actions.reopenSelected = window.reopenActions()->reopenSelectedAction();
    actions.editSelected = window.editActions()->editSelectedAction();
    actions.addNote = window.notesActions()->addNoteAction();
    actions.clearNotes = window.notesActions()->clearNotesAction();
    actions.copyIds = window.tableMenu()->copyIdsAction();
}

} // namespace

namespace WindowMenus {

QString aboutText(const MainWindow &window)
{
    return QObject::tr("<h3>Outbox Health %1</h3>"
                       "<p>Health dashboard for a transactional outbox.</p>"
                       "<p>Database: %2<br>Profile: %3%4</p>"
                       "<p>Qt %5 (built with %6)</p>")
        .arg(QApplication::applicationVersion().toHtmlEscaped(),
            window.url().toStorableString().toHtmlEscaped(), window.profileName().toHtmlEscaped(),
            window.openOptions().readOnly ? QObject::tr(", read-only") : QString(),
            QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR));
}

void install(MainWindow &window, MenuActions actions, QSpinBox *interval)
{
    addSearchActions(window, actions);
    addWindowActions(window, actions);
    addWrites(window, actions);
    actions.diagnosis = named(window, QObject::tr("&Diagnosis"), "diagnosisAction");
    actions.diagnosis->setShortcut(QObject::tr("Ctrl+D"));
    QObject::connect(actions.diagnosis, &QAction::triggered, &window, [&window] {
        window.showPage(DiagnosisPage::Key);
        window.focusPage();
    });
    actions.pages = window.pages()->pageActions();
    // Window-wide shortcuts need the actions on the window, not only in a menu (a hidden menu
    // bar, a page's key while another page shows).
    window.addActions({actions.quit, actions.find, actions.search, actions.clearSearch,
        actions.refresh, actions.exportEvents, actions.diagnosis, actions.replayMatching,
        actions.reopenSelected, actions.editSelected, actions.addNote, actions.clearNotes});
    window.addActions(actions.pages);
    window.menuBar()->setObjectName(QStringLiteral("menuBar"));
    MainMenus::build(window.menuBar(), actions, interval);
}

} // namespace WindowMenus
