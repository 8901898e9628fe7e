// View › Copy link to this view: puts an outbox-health:open?… link (ViewLink) on the clipboard
// that opens a window on the same database, profile, page, filter and sort, with the same event
// showing, as far as outbox-dashboard's options can say it; the database without its password.
// A transient status-bar message says it was copied.
#pragma once

#include <QAction>

class MainWindow;

class CopyLinkAction : public QAction
{
    Q_OBJECT
public:
    explicit CopyLinkAction(MainWindow *window);

    // The link to what `window` shows now.
    static QString linkTo(const MainWindow &window);
    // Whether the filter shown holds more than a link carries (an error group, a category, a
    // minimum of failures, an age range, an event type): the link then shows more rows.
    static bool filterIsPartial(const MainWindow &window);

private:
    void copy();

    MainWindow *m_window = nullptr;
};
