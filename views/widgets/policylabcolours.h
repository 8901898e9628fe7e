// How the Policy lab tells the policies it compares apart: A in the in-flight blue, B in the
// retry amber, the same in its table, its step chart and its storm chart.
#pragma once

#include <QColor>
#include <QString>

namespace PolicyLabColours {

QColor of(int index);
// "A: " and "B: " when two policies are compared; nothing for one.
QString label(int index, int count);

} // namespace PolicyLabColours
