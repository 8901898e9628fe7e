#include "banneroverlay.h"

#include <QBoxLayout>
#include <QEvent>
#include <QVBoxLayout>
#include <algorithm>

BannerOverlay::BannerOverlay(QWidget *area)
    : QWidget(area->parentWidget())
    , m_area(area)
    , m_banners(new QVBoxLayout(this))
{
    setObjectName(QStringLiteral("bannerOverlay"));
    m_banners->setContentsMargins(0, 0, 0, 0);
    m_banners->setSpacing(2);
    auto *layout = qobject_cast<QBoxLayout *>(area->parentWidget()->layout());
    const int index = layout ? layout->indexOf(area) : -1;
    m_inLayout = index >= 0;
    if (m_inLayout)
        layout->insertWidget(index + 1, this);
    else
        m_area->installEventFilter(this); // floats: follows the area's size and place
    hide();
}

void BannerOverlay::addBanner(QWidget *banner)
{
    m_banners->addWidget(banner);
    banner->installEventFilter(this); // shown, hidden, or grown by another line
    place();
}

bool BannerOverlay::eventFilter(QObject *watched, QEvent *event)
{
    const QEvent::Type type = event->type();
    if (watched == m_area ? type == QEvent::Resize || type == QEvent::Move
                          : type == QEvent::ShowToParent || type == QEvent::HideToParent
                || type == QEvent::LayoutRequest)
        place();
    return QWidget::eventFilter(watched, event);
}

void BannerOverlay::place()
{
    bool any = false;
    for (int i = 0; i < m_banners->count(); ++i) {
        const QWidget *banner = m_banners->itemAt(i)->widget();
        any = any || (banner && !banner->isHidden());
    }
    setVisible(any);
    if (!any || m_inLayout)
        return; // in the layout: it takes its room below the area
    m_banners->activate(); // the banners' sizes as they are now
    const int width = m_area->width();
    const int height = std::min(m_area->height(),
        m_banners->hasHeightForWidth() ? m_banners->heightForWidth(width)
                                       : m_banners->sizeHint().height());
    setGeometry(m_area->x(), m_area->geometry().bottom() + 1 - height, width, height);
    raise();
}
