// Gives a tab page the splitter's whole width while that page is the current tab (the other
// side folds away; its handle stays to drag it back), and the earlier sizes back when another
// tab is chosen: the Policy lab's table and charts sit side by side, which the right-hand
// pane's usual share of a laptop's screen cannot hold.
#pragma once

#include <QList>
#include <QObject>

class QSplitter;
class QTabWidget;

class TabWidener : public QObject
{
    Q_OBJECT
public:
    // `tabs` is the splitter's last widget; `page` one of its pages.
    TabWidener(QTabWidget *tabs, QWidget *page, QSplitter *splitter, QObject *parent = nullptr);

    bool isWidened() const { return !m_before.isEmpty(); }
    // The sizes from before (so that a window closed on the page saves those).
    void restore();

private:
    void widen();

    QTabWidget *m_tabs = nullptr;
    QWidget *m_page = nullptr;
    QSplitter *m_splitter = nullptr;
    QList<int> m_before; // empty: not widened
};
