#include "sparklinedelegate.h"

#include "prometheusfleetmodel.h"

#include <QApplication>
#include <QPainter>
#include <QPainterPath>

SparklineDelegate::SparklineDelegate(QObject *parent)
    : QStyledItemDelegate(parent)
{ }

void SparklineDelegate::paint(
    QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const QList<double> points = index.data(PrometheusFleetModel::TrendRole).value<QList<double>>();
    if (points.size() < 2) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionViewItem background = option;
    initStyleOption(&background, index);
    background.text.clear();
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &background, painter, widget);
    const QRectF area = QRectF(option.rect).adjusted(4, 4, -4, -4);
    const auto [low, high] = std::minmax_element(points.begin(), points.end());
    const double span = *high - *low > 0 ? *high - *low : 1;
    QPainterPath path;
    for (qsizetype i = 0; i < points.size(); ++i) {
        const QPointF at(area.left() + area.width() * double(i) / double(points.size() - 1),
            area.bottom() - area.height() * (points.at(i) - *low) / span);
        if (i == 0)
            path.moveTo(at);
        else
            path.lineTo(at);
    }
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(
        QPen(option.palette.color(option.state & QStyle::State_Selected ? QPalette::HighlightedText
                                                                        : QPalette::Text),
            1.2));
    painter->drawPath(path);
    painter->setBrush(painter->pen().color());
    painter->drawEllipse(path.currentPosition(), 2, 2);
    painter->restore();
}

QSize SparklineDelegate::sizeHint(
    const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const QSize text = QStyledItemDelegate::sizeHint(option, index);
    return {qMax(text.width(), 110), text.height()};
}
