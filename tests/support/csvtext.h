// RFC 4180 records back from CSV text, so tests compare exported fields exactly.
#pragma once

#include <QList>
#include <QStringList>

QList<QStringList> parseCsv(const QString &text);
