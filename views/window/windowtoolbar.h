// The window's toolbar: Connect…, the writes and exports (WindowActions), Thresholds…, Refresh,
// Pause refresh and the refresh interval, which takes focus only from a click (a stray digit
// typed into it would change the refresh; View › Refresh interval is the keyboard's way).
#pragma once

class MainWindow;
class QAction;
class QSpinBox;

struct ToolbarActions
{
    QAction *connect = nullptr;
    QAction *refresh = nullptr;
    QAction *pause = nullptr;
    QAction *thresholds = nullptr;
    QSpinBox *interval = nullptr;
};

namespace WindowToolbar {

ToolbarActions build(MainWindow &window);

} // namespace WindowToolbar
