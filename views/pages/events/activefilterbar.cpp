#include "activefilterbar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

ActiveFilterBar::ActiveFilterBar(QWidget *parent)
    : QWidget(parent)
    , m_label(new QLabel)
    , m_clear(new QToolButton)
{
    setObjectName(QStringLiteral("activeFilterBar"));
    m_label->setObjectName(QStringLiteral("activeFilterLabel"));
    m_label->setTextFormat(Qt::PlainText);
    m_clear->setObjectName(QStringLiteral("clearFilterButton"));
    m_clear->setText(tr("Clear filter"));
    m_clear->setToolTip(tr("Show every event again"));
    m_clear->setAutoRaise(true);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(2, 0, 2, 0);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_clear);
    connect(m_clear, &QToolButton::clicked, this, &ActiveFilterBar::clearRequested);
    hide();
}

void ActiveFilterBar::setFilter(const EventFilter &filter)
{
    const QString summary = filter.summary();
    // Elided by the label's width; the whole summary in the tooltip.
    m_label->setText(tr("Filtered: %1").arg(summary));
    m_label->setToolTip(summary);
    setVisible(!summary.isEmpty());
}

QString ActiveFilterBar::text() const
{
    return isVisibleTo(parentWidget()) ? m_label->text() : QString();
}
