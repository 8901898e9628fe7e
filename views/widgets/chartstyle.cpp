#include "chartstyle.h"

#include "themecolours.h"

#include <QChart>
#include <QGraphicsLayout>
#include <QValueAxis>
#include <cmath>

namespace ChartStyle {

QColor pendingBlue()
{
    return ThemeColours::isDark() ? QColor(0x58, 0xa6, 0xff) : QColor(0x4c, 0x8e, 0xda);
}

QColor textColour()
{
    return ThemeColours::current().color(QPalette::WindowText);
}

QChart *newChart(const QString &title)
{
    auto *chart = new QChart;
    // Before any series, so our colours stay; the dark theme on a dark palette.
    chart->setTheme(ThemeColours::isDark() ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    if (ThemeColours::isDark()) // the window's own colour, not the theme's gradient
        chart->setBackgroundBrush(ThemeColours::current().color(QPalette::Base));
    chart->setTitle(title);
    QFont font = chart->titleFont();
    font.setBold(true);
    chart->setTitleFont(font);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(2, 2, 2, 2));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setBackgroundRoundness(0);
    return chart;
}

void setCountRange(QValueAxis *axis, qreal max)
{
    const qreal top = std::max<qreal>(1, max);
    const qreal magnitude = std::pow(10.0, std::floor(std::log10(top / 5)));
    qreal step = 1;
    for (const qreal factor : {1.0, 2.0, 5.0, 10.0}) {
        step = std::max<qreal>(1, factor * magnitude);
        if (top / step <= 5)
            break;
    }
    const int steps = int(std::ceil(top / step));
    axis->setRange(0, steps * step);
    axis->setTickCount(steps + 1);
    axis->setLabelFormat(QStringLiteral("%.0f"));
}

QValueAxis *countAxis()
{
    auto *axis = new QValueAxis;
    setCountRange(axis, 0);
    return axis;
}

void addAxis(QChart *chart, QAbstractAxis *axis, Qt::Alignment alignment)
{
    chart->addAxis(axis, alignment); // applies the theme's fonts
    QFont font = axis->labelsFont();
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() - 1);
    else
        font.setPixelSize(font.pixelSize() - 1);
    axis->setLabelsFont(font);
}

} // namespace ChartStyle
