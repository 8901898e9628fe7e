#include "fulltextdelegate.h"

#include "plaintext.h"

#include <QAbstractItemView>
#include <QHelpEvent>
#include <QToolTip>

QString FullTextDelegate::toolTipFor(
    const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const QString own = index.data(Qt::ToolTipRole).toString();
    if (!own.isEmpty())
        return own; // the model's, already PlainText::toolTip
    QStyleOptionViewItem item = option;
    initStyleOption(&item, index);
    if (item.text.isEmpty())
        return {};
    // The room the style gives the text: the cell less its margins on both sides.
    constexpr int Margins = 12;
    const int needed = item.fontMetrics.horizontalAdvance(item.text) + Margins;
    const bool cut = needed > option.rect.width() || item.text.contains(QLatin1Char('\n'));
    return cut ? PlainText::toolTip(item.text) : QString();
}

bool FullTextDelegate::helpEvent(QHelpEvent *event, QAbstractItemView *view,
    const QStyleOptionViewItem &option, const QModelIndex &index)
{
    if (!event || !view || event->type() != QEvent::ToolTip)
        return QStyledItemDelegate::helpEvent(event, view, option, index);
    const QString text = toolTipFor(option, index);
    if (text.isEmpty()) {
        QToolTip::hideText();
        event->ignore();
        return false;
    }
    QToolTip::showText(event->globalPos(), text, view, option.rect);
    return true;
}
