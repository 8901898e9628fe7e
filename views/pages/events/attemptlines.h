// The attempt table of the detail pane in a narrow pane: an attempt's message, then on a line of
// its own who ran it and when ("worker-1 at 17:05:01 for 120 ms; next due 10.0 s later"), in
// one wrapped column, so a laptop's pane shows them without a horizontal scroll; the exact
// times in its tooltip. The other columns pass through unchanged (AttemptModel's).
#pragma once

#include <QIdentityProxyModel>

class AttemptLines : public QIdentityProxyModel
{
    Q_OBJECT
public:
    using QIdentityProxyModel::QIdentityProxyModel;

    // The second line of `row`: its worker, claim and finish times, how long it took and, for a
    // retry, when the next attempt is due.
    QString whoAndWhen(int row) const;
    QString exactTimes(int row) const;

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
};
