// The window's menu bar and its window-wide keys: fills MenuActions with the actions the
// window's parts own (the writes, the table's Copy IDs, the pages' Ctrl+1…N) and those of the
// menus only (Find event, Search `/`, Clear search, Copy link, Mute, Quit, About), adds the
// shortcut-carrying ones to the window and lays them out (MainMenus::build).
#pragma once

#include <QString>

struct MenuActions;
class MainWindow;
class QSpinBox;

namespace WindowMenus {

// `own`: the window's own actions (connect, refresh, pause, thresholds).
void install(MainWindow &window, MenuActions own, QSpinBox *interval);
// What Help › About says: version, database (never a password), profile and Qt version.
QString aboutText(const MainWindow &window);

} // namespace WindowMenus
