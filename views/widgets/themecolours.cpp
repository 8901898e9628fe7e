#include "themecolours.h"

#include <QApplication>
#include <QStyle>
#include <QStyleFactory>
#include <cmath>

namespace ThemeColours {

QPalette current()
{
    return QGuiApplication::palette();
}

bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightnessF() < 0.5;
}

QColor status(const QString &word, const QPalette &palette)
{
    const bool dark = isDark(palette);
    const QString key = word.trimmed().toUpper().replace(QLatin1Char('_'), QLatin1Char(' '));
    if (key == QLatin1String("DELIVERED"))
        return dark ? QColor(0x3f, 0xb9, 0x50) : QColor(0x1a, 0x7f, 0x37);
    if (key == QLatin1String("DEAD"))
        return dark ? QColor(0xff, 0x7b, 0x72) : QColor(0xcf, 0x22, 0x2e);
    if (key == QLatin1String("RETRY") || key == QLatin1String("LEASE EXPIRED")
        || key == QLatin1String("SCHEDULED"))
        return dark ? QColor(0xd2, 0x99, 0x22) : QColor(0x9a, 0x67, 0x00);
    if (key == QLatin1String("IN FLIGHT"))
        return dark ? QColor(0x58, 0xa6, 0xff) : QColor(0x09, 0x69, 0xda);
    if (key == QLatin1String("DUE"))
        return dark ? QColor(0x9d, 0xb1, 0xc5) : QColor(0x57, 0x72, 0x8f);
    if (key == QLatin1String("RESOLVED"))
        return dark ? QColor(0xbc, 0x8c, 0xff) : QColor(0x82, 0x50, 0xdf);
    return {};
}

QColor deadRowBackground(const QPalette &palette)
{
    return isDark(palette) ? QColor(0x4a, 0x1b, 0x1e) : QColor(0xff, 0xeb, 0xe9);
}

QColor deadRowText(const QPalette &palette)
{
    return isDark(palette) ? QColor(0xff, 0xb3, 0xad) : QColor(0x82, 0x07, 0x1e);
}

QColor warningText(const QPalette &palette)
{
    return isDark(palette) ? QColor(0xe3, 0xb3, 0x41) : QColor(0x8a, 0x5a, 0x00);
}

QColor errorText(const QPalette &palette)
{
    return isDark(palette) ? QColor(0xff, 0x7b, 0x72) : QColor(0xb0, 0x20, 0x30);
}

QColor neutral(const QPalette &palette)
{
    return isDark(palette) ? QColor(0x8b, 0x94, 0x9e) : QColor(0x8c, 0x95, 0x9f);
}

// Background, border, text and hint (0xRRGGBB) of each level in TileLevel's order: on a light
// palette, then on a dark one.
const Tile tiles[2][4] = {
    {
        {QColor(0xf6f8fa), QColor(0xd0d7de), QColor(0x1f2328), QColor(0x57606a)}, // Normal
        {QColor(0xfff4cc), QColor(0xd4a72c), QColor(0x4d2d00), QColor(0x6b4a00)}, // Amber
        {QColor(0xffe1e1), QColor(0xcf222e), QColor(0x82071e), QColor(0x8c1d28)}, // Red
        {QColor(0xeaeef2), QColor(0xafb8c1), QColor(0x57606a), QColor(0x57606a)}, // Stale
    },
    {
        {QColor(0x161b22), QColor(0x30363d), QColor(0xe6edf3), QColor(0x9da5ae)},
        {QColor(0x3a2c00), QColor(0xd29922), QColor(0xf8e3a1), QColor(0xe3b341)},
        {QColor(0x4a1418), QColor(0xf85149), QColor(0xffd8d3), QColor(0xffa198)},
        {QColor(0x21262d), QColor(0x484f58), QColor(0x9da5ae), QColor(0x8b949e)},
    },
};

Tile tile(TileLevel level, const QPalette &palette)
{
    return tiles[isDark(palette) ? 1 : 0][int(level)];
}

QString bannerStyleSheet(const QString &objectName, TileLevel level)
{
    const Tile colours = tile(level);
    const QColor border
        = level == TileLevel::Normal ? current().color(QPalette::Highlight) : colours.border;
    return QStringLiteral("QFrame#%1 { background: %2; border: 1px solid %3; border-radius: 6px; }"
                          " QFrame#%1 QLabel { color: %4; background: transparent; }")
        .arg(objectName, colours.background.name(), border.name(), colours.text.name());
}

namespace {

double luminance(const QColor &colour)
{
    const auto channel
        = [](double c) { return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(colour.redF()) + 0.7152 * channel(colour.greenF())
        + 0.0722 * channel(colour.blueF());
}

} // namespace

double contrastRatio(const QColor &a, const QColor &b)
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor textOn(const QColor &background)
{
    return contrastRatio(background, Qt::white) >= contrastRatio(background, Qt::black)
        ? QColor(Qt::white)
        : QColor(Qt::black);
}

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x1f, 0x23, 0x28), base(0x16, 0x1b, 0x22), text(0xe6, 0xed, 0xf3);
    const QColor disabled(0x7d, 0x85, 0x90), highlight(0x1f, 0x6f, 0xeb);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, QColor(0x2d, 0x33, 0x3b));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x2d, 0x33, 0x3b));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x7b, 0x72));
    p.setColor(QPalette::Light, QColor(0x48, 0x4f, 0x58));
    p.setColor(QPalette::Midlight, QColor(0x3a, 0x40, 0x48));
    p.setColor(QPalette::Mid, QColor(0x30, 0x36, 0x3d));
    p.setColor(QPalette::Dark, QColor(0x0d, 0x11, 0x17));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x58, 0xa6, 0xff));
    p.setColor(QPalette::LinkVisited, QColor(0xbc, 0x8c, 0xff));
    for (const QPalette::ColorRole role :
        {QPalette::WindowText, QPalette::Text, QPalette::ButtonText}) {
        p.setColor(QPalette::Disabled, role, disabled);
    }
    return p;
}

bool applyTheme(const QString &name, QString *error)
{
    if (name == QLatin1String("system"))
        return true;
    if (name != QLatin1String("dark") && name != QLatin1String("light")) {
        *error = QApplication::translate("ThemeColours",
            "--theme: expected light, dark or system, "
            "not \"%1\"")
                     .arg(name);
        return false;
    }
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QApplication::setPalette(
        name == QLatin1String("dark") ? darkPalette() : QApplication::style()->standardPalette());
    return true;
}

} // namespace ThemeColours
