#include "plaintooltips.h"

#include "plaintext.h"

#include <QApplication>
#include <QHelpEvent>
#include <QToolTip>
#include <QWidget>

void PlainToolTips::install()
{
    if (!qApp || qApp->findChild<PlainToolTips *>(QString(), Qt::FindDirectChildrenOnly))
        return;
    qApp->installEventFilter(new PlainToolTips(qApp));
}

bool PlainToolTips::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::ToolTip || !watched->isWidgetType())
        return false;
    auto *widget = static_cast<QWidget *>(watched);
    const QString tip = widget->toolTip();
    if (tip.isEmpty())
        return false; // an item view's cell, or no tooltip: as Qt does it
    // What QWidget::event does with the text made plain.
    const auto *help = static_cast<QHelpEvent *>(event);
    QToolTip::showText(
        help->globalPos(), PlainText::toolTip(tip), widget, QRect(), widget->toolTipDuration());
    return true;
}
