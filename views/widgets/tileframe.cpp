#include "tileframe.h"

#include <QFrame>
#include <QLabel>
#include <QVBoxLayout>

void stackTileLines(QFrame *frame, QLabel *title, QLabel *value, QLabel *hint)
{
    title->setObjectName(QStringLiteral("tileTitle"));
    value->setObjectName(QStringLiteral("tileValue"));
    hint->setObjectName(QStringLiteral("tileHint"));
    auto *column = new QVBoxLayout(frame);
    column->setContentsMargins(10, 6, 10, 6);
    column->setSpacing(0);
    column->addWidget(title);
    column->addWidget(value);
    column->addWidget(hint);
}
