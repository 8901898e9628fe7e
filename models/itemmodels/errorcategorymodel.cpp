#include "errorcategorymodel.h"

ErrorCategoryModel::ErrorCategoryModel(QObject *parent)
    : ValueTableModel({tr("Error category"), tr("Events")}, parent)
{
    setRightAligned({CountColumn});
}

void ErrorCategoryModel::setSnapshot(const HealthSnapshot &snapshot)
{
    SqlRows rows;
    for (const CategoryCount &category : snapshot.errorCategories)
        rows << QVariantList {category.category, category.count};
    resetRows(rows);
}
