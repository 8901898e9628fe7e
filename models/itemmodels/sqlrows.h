// Rows read by a worker and handed to an item model as values: one QVariantList per row, the
// columns in the order of the model's Column enum. Nothing here refers to a connection.
#pragma once

#include <QList>
#include <QMetaType>
#include <QVariantList>

using SqlRows = QList<QVariantList>;
