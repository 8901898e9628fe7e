// Shows a cell's whole text in a tooltip when the column is too narrow for it (an error, an
// aggregate, a type): what the cell shows elided is never lost. The text is the database's:
// shown as written (PlainText::toolTip), never as markup.
#pragma once

#include <QStyledItemDelegate>

class FullTextDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    // The text a tooltip over `index` shows: the model's own tooltip (PlainText::toolTip, as
    // every model here gives it), else the display text as PlainText::toolTip when it does not
    // fit `option.rect`, else nothing.
    QString toolTipFor(const QStyleOptionViewItem &option, const QModelIndex &index) const;

    bool helpEvent(QHelpEvent *event, QAbstractItemView *view, const QStyleOptionViewItem &option,
        const QModelIndex &index) override;
};
