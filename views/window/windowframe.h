// What the window's frame says and how big it opens, apart from the window that composes it:
// its title (environment, outbox, database; never a password), the name desktop alerts give the
// outbox, the default size within the screen, and the demo's hint bar above the tiles.
#pragma once

#include <QSize>
#include <QString>

class DatabaseUrl;
class MainWindow;
struct WindowOptions;

namespace WindowFrame {

QString title(const WindowOptions &options, const DatabaseUrl &url);
// WindowOptions::outboxName, else the database's (a file's base name).
QString outboxName(const WindowOptions &options, const DatabaseUrl &url);
// 1600×1000 at most, within the screen's available area (a 1366×768 laptop included).
QSize defaultSize();
// The demo's first runs: "Show me" selects a DEAD event on the Events page.
void addHintBar(MainWindow &window);

} // namespace WindowFrame
