#include "errorcategorymodel.h"

ErrorCategoryModel::ErrorCategoryModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void ErrorCategoryModel::setSnapshot(const HealthSnapshot &snapshot)
{
    beginResetModel();
    m_categories = snapshot.errorCategories;
    endResetModel();
}

int ErrorCategoryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_categories.size());
}

int ErrorCategoryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ErrorCategoryModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (role == Qt::TextAlignmentRole && index.column() == CountColumn)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    if (role != Qt::DisplayRole)
        return {};
    const CategoryCount &category = m_categories.at(index.row());
    return index.column() == CategoryColumn ? QVariant(category.category)
                                            : QVariant(category.count);
}

QVariant ErrorCategoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case CategoryColumn:
        return tr("Error category");
    case CountColumn:
        return tr("Events");
    default:
        return {};
    }
}
