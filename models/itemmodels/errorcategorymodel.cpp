#include "errorcategorymodel.h"

ErrorCategoryModel::ErrorCategoryModel(QObject *parent)
    : SnapshotTableModel(
        &HealthSnapshot::errorCategories, {tr("Error category"), tr("Events")}, parent)
{ }

QVariant ErrorCategoryModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (role == Qt::TextAlignmentRole && index.column() == CountColumn)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    if (role != Qt::DisplayRole)
        return {};
    const CategoryCount &category = items().at(index.row());
    return index.column() == CategoryColumn ? QVariant(category.category)
                                            : QVariant(category.count);
}
