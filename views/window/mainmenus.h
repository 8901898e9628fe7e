// The dashboard's menu bar: File (Connect…, Export…, Quit), View (the pages, Ctrl+1…, teaching
// panel, diagnosis,
// refresh interval, pause, thresholds, mute alerts, search, copy link), Actions (Refresh,
// Replay…, Resolve…, Reopen…, copy IDs) and Help (About). It only lays out actions the window and
// its parts own.
#pragma once

#include <QList>

class QAction;
class QMenuBar;
class QSpinBox;
class QWidget;

struct MenuActions
{
    QAction *connect = nullptr;
    QAction *openFleet = nullptr; // none: not offered
    QAction *exportEvents = nullptr;
    QAction *exportAudit = nullptr;
    QAction *quit = nullptr;
    QAction *pauseRefresh = nullptr;
    QAction *thresholds = nullptr;
    // Checkable: this outbox's desktop alerts muted (AlertDecider); its data() is the outbox's
    // name, and it follows a mute or unmute made elsewhere each time the View menu opens.
    QAction *muteAlerts = nullptr;
    QAction *diagnosis = nullptr; // shows the Diagnosis page
    QList<QAction *> pages; // one per page of the window, Ctrl+1…9
    QAction *find = nullptr;
    QAction *search = nullptr; // `/`: the shown page's search field
    QAction *clearSearch = nullptr;
    QAction *copyLink = nullptr; // View › Copy link to this view
    QAction *refresh = nullptr;
    QAction *replaySelected = nullptr;
    QAction *replayMatching = nullptr;
    QAction *resolveSelected = nullptr;
    QAction *reopenSelected = nullptr;
    QAction *editSelected = nullptr; // Edit and replay…
    QAction *addNote = nullptr;
    QAction *clearNotes = nullptr;
    QAction *copyIds = nullptr;
    QAction *about = nullptr;
};

namespace MainMenus {

// The refresh intervals View › Refresh interval offers, in seconds.
const QList<int> &intervalChoices();

// `interval`: the toolbar's box the View › Refresh interval choices set (and follow).
void build(QMenuBar *bar, const MenuActions &actions, QSpinBox *interval);

} // namespace MainMenus
