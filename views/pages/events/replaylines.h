// The replay table of the detail pane in a narrow pane: an action's reason, then on a line of
// its own what it gave the event ("one more attempt after 3 failures"), in one wrapped column,
// so a laptop's pane shows every replay without a horizontal scroll. The other columns pass
// through unchanged (ReplayLogModel's); the budget and failure columns are hidden beside it.
#pragma once

#include <QIdentityProxyModel>

class ReplayLines : public QIdentityProxyModel
{
    Q_OBJECT
public:
    using QIdentityProxyModel::QIdentityProxyModel;

    // The second line of `row`: the budget it gave and the failures the event had before.
    QString budgetLine(int row) const;

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
};
