#include "tabwidener.h"

#include <QSplitter>
#include <QTabWidget>
#include <utility>

TabWidener::TabWidener(QTabWidget *tabs, QWidget *page, QSplitter *splitter, QObject *parent)
    : QObject(parent)
    , m_tabs(tabs)
    , m_page(page)
    , m_splitter(splitter)
{
    connect(tabs, &QTabWidget::currentChanged, this, [this] {
        if (m_tabs->currentWidget() == m_page)
            widen();
        else
            restore();
    });
}

void TabWidener::widen()
{
    const QList<int> sizes = m_splitter->sizes();
    if (isWidened() || sizes.size() != 2)
        return;
    if (sizes.at(0) == 0)
        return; // already folded away
    m_before = sizes;
    m_splitter->setSizes({0, sizes.at(0) + sizes.at(1)});
}

void TabWidener::restore()
{
    if (isWidened())
        m_splitter->setSizes(std::exchange(m_before, {}));
}
