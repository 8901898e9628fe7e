#include "replaylines.h"

#include "replaylogmodel.h"

QString ReplayLines::budgetLine(int row) const
{
    const QString budget
        = sourceModel()->index(row, ReplayLogModel::BudgetColumn).data().toString();
    const QVariant failures
        = sourceModel()->index(row, ReplayLogModel::FailuresBeforeColumn).data(Qt::DisplayRole);
    if (failures.isNull() || failures.toString().isEmpty())
        return budget;
    const QString after = tr("after %n failure(s)", nullptr, failures.toInt());
    return budget.isEmpty() ? after : QString(budget + QLatin1Char(' ') + after);
}

QVariant ReplayLines::data(const QModelIndex &index, int role) const
{
    if (index.column() != ReplayLogModel::ReasonColumn || role != Qt::DisplayRole)
        return QIdentityProxyModel::data(index, role);
    const QString reason = QIdentityProxyModel::data(index, role).toString();
    const QString second = budgetLine(index.row());
    if (reason.isEmpty() || second.isEmpty())
        return reason.isEmpty() ? second : reason;
    return QString(reason + QLatin1Char('\n') + second);
}

QVariant ReplayLines::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && section == ReplayLogModel::ReasonColumn
        && role == Qt::ToolTipRole)
        return tr("Why; below it the budget the action gave and the failures before it");
    return QIdentityProxyModel::headerData(section, orientation, role);
}
