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

Tile tile(TileLevel level, const QPalette &palette)
{
    if (isDark(palette)) {
        switch (level) {
        case TileLevel::Amber:
            return {QColor(0x3a, 0x2c, 0x00), QColor(0xd2, 0x99, 0x22), QColor(0xf8, 0xe3, 0xa1),
                QColor(0xe3, 0xb3, 0x41)};
        case TileLevel::Red:
            return {QColor(0x4a, 0x14, 0x18), QColor(0xf8, 0x51, 0x49), QColor(0xff, 0xd8, 0xd3),
                QColor(0xff, 0xa1, 0x98)};
        case TileLevel::Stale:
            return {QColor(0x21, 0x26, 0x2d), QColor(0x48, 0x4f, 0x58), QColor(0x9d, 0xa5, 0xae),
                QColor(0x8b, 0x94, 0x9e)};
        case TileLevel::Normal:
            break;
        }
        return {QColor(0x16, 0x1b, 0x22), QColor(0x30, 0x36, 0x3d), QColor(0xe6, 0xed, 0xf3),
            QColor(0x9d, 0xa5, 0xae)};
    }
    switch (level) {
    case TileLevel::Amber:
        return {QColor(0xff, 0xf4, 0xcc), QColor(0xd4, 0xa7, 0x2c), QColor(0x4d, 0x2d, 0x00),
            QColor(0x6b, 0x4a, 0x00)};
    case TileLevel::Red:
        return {QColor(0xff, 0xe1, 0xe1), QColor(0xcf, 0x22, 0x2e), QColor(0x82, 0x07, 0x1e),
            QColor(0x8c, 0x1d, 0x28)};
    case TileLevel::Stale:
        return {QColor(0xea, 0xee, 0xf2), QColor(0xaf, 0xb8, 0xc1), QColor(0x57, 0x60, 0x6a),
            QColor(0x57, 0x60, 0x6a)};
    case TileLevel::Normal:
        break;
    }
    return {QColor(0xf6, 0xf8, 0xfa), QColor(0xd0, 0xd7, 0xde), QColor(0x1f, 0x23, 0x28),
        QColor(0x57, 0x60, 0x6a)};
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
