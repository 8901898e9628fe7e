// The window's pages and the rail that switches between them: one page at a time, at the
// window's full width; the rail stays in the same place and is as wide as its longest name, so
// a page name is never scrolled away or cut. Ctrl+1…9 show the first nine pages (the View menu
// lists them).
#pragma once

#include <QList>
#include <QStringList>
#include <QWidget>

class QAction;
class QListWidget;
class QStackedWidget;

class PageNavigator : public QWidget
{
    Q_OBJECT
public:
    explicit PageNavigator(QWidget *parent = nullptr);

    // `key`: the page's name for --tab and the settings ("events"); `title` in the rail.
    void addPage(const QString &key, const QString &title, QWidget *page);
    void showPage(const QString &key); // an unknown key changes nothing
    QString currentPage() const;
    QWidget *page(const QString &key) const;
    QStringList pageKeys() const { return m_keys; }
    QListWidget *rail() const { return m_rail; }
    QStackedWidget *stack() const { return m_stack; }
    // "Overview  Ctrl+1" and so on, one per page (up to nine), for the window and View menu.
    QList<QAction *> pageActions() const { return m_actions; }

signals:
    void currentPageChanged(const QString &key);

private:
    void fitRail();

    QListWidget *m_rail = nullptr;
    QStackedWidget *m_stack = nullptr;
    QStringList m_keys;
    QList<QAction *> m_actions;
};
