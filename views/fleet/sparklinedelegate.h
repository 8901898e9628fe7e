// A sparkline in a table cell: the points of PrometheusFleetModel::TrendRole as a line scaled to
// the cell, the last point marked, and the cell's text ("0 → 3") for whoever cannot see it (the
// accessible text and the tooltip stay the model's).
#pragma once

#include <QStyledItemDelegate>

class SparklineDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    explicit SparklineDelegate(QObject *parent = nullptr);

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
        const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};
