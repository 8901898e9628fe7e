#include "pagenavigator.h"

#include <QAction>
#include <QHBoxLayout>
#include <QListWidget>
#include <QStackedWidget>

PageNavigator::PageNavigator(QWidget *parent)
    : QWidget(parent)
    , m_rail(new QListWidget)
    , m_stack(new QStackedWidget)
{
    m_rail->setObjectName(QStringLiteral("pageRail"));
    m_rail->setAccessibleName(tr("Pages"));
    m_stack->setObjectName(QStringLiteral("pageStack"));
    m_rail->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_rail->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_rail->setTextElideMode(Qt::ElideNone);
    m_rail->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Expanding);
    m_rail->setSpacing(2);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_rail);
    layout->addWidget(m_stack, 1);
    connect(m_rail, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row < 0)
            return;
        m_stack->setCurrentIndex(row);
        emit currentPageChanged(m_keys.at(row));
    });
}

void PageNavigator::addPage(const QString &key, const QString &title, QWidget *page)
{
    page->setProperty("pageKey", key);
    m_keys << key;
    m_stack->addWidget(page);
    auto *item = new QListWidgetItem(title, m_rail);
    item->setData(Qt::UserRole, key);
    item->setToolTip(title);
    if (m_keys.size() <= 9) {
        auto *action = new QAction(title, this);
        action->setObjectName(key + QStringLiteral("PageAction"));
        action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_0 + m_keys.size())));
        connect(action, &QAction::triggered, this, [this, key] { showPage(key); });
        m_actions << action;
    }
    if (m_rail->currentRow() < 0)
        m_rail->setCurrentRow(0);
    m_rail->setAccessibleDescription(
        tr("The window's pages: Ctrl+1 to Ctrl+%1 show them").arg(m_actions.size()));
    fitRail();
}

void PageNavigator::showPage(const QString &key)
{
    if (const qsizetype row = m_keys.indexOf(key); row >= 0)
        m_rail->setCurrentRow(int(row));
}

QString PageNavigator::currentPage() const
{
    const int row = m_rail->currentRow();
    return row < 0 ? QString() : m_keys.at(row);
}

QWidget *PageNavigator::page(const QString &key) const
{
    const qsizetype row = m_keys.indexOf(key);
    return row < 0 ? nullptr : m_stack->widget(int(row));
}

// As wide as the longest name (with the item's padding and the frame), never narrower.
void PageNavigator::fitRail()
{
    int widest = 0;
    for (int row = 0; row < m_rail->count(); ++row)
        widest = qMax(widest, m_rail->fontMetrics().horizontalAdvance(m_rail->item(row)->text()));
    m_rail->setFixedWidth(widest + 2 * m_rail->frameWidth() + 32);
}
