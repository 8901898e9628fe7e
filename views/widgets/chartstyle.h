// How the dashboard's charts look, shared by the Charts tab and the Errors tab: a chart in the
// palette's theme (dark on a dark palette), count axes with round integer ticks, axis labels a
// size smaller than the theme's, and the colours of pending bars and of chart text.
#pragma once

#include <QColor>

class QAbstractAxis;
class QChart;
class QString;
class QValueAxis;

namespace ChartStyle {

QColor pendingBlue();
QColor textColour();
QChart *newChart(const QString &title);
// Integer ticks from 0 to a round number at or above `max`, at most six of them.
void setCountRange(QValueAxis *axis, qreal max);
QValueAxis *countAxis();
// Axis labels a size smaller than the theme's, so that bucket names fit a narrow pane. The
// chart titles say what is counted, so count axes go without a title of their own.
void addAxis(QChart *chart, QAbstractAxis *axis, Qt::Alignment alignment);

} // namespace ChartStyle
