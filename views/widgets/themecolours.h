// The dashboard's colours, chosen for the palette in use: every status, tile and chart colour
// has a light and a dark variant, picked by the palette's window colour, so a dark palette
// (the desktop's, or outbox-dashboard --theme dark) stays readable. The one place the
// dashboard's colours live; widgets ask here instead of hard-coding a hex value.
#pragma once

#include <QColor>
#include <QPalette>
#include <QString>

namespace ThemeColours {

// The application's palette unless one is given.
QPalette current();
bool isDark(const QPalette &palette = current());

// Text, lines and markers of a status or outcome word ("DELIVERED", "RETRY", "LEASE_EXPIRED",
// "in flight", "DUE", ...) on the palette's base colour; invalid for a word without one.
QColor status(const QString &word, const QPalette &palette = current());
QColor deadRowBackground(const QPalette &palette = current());
QColor deadRowText(const QPalette &palette = current());
QColor warningText(const QPalette &palette = current()); // "Loading…", READ-ONLY, notices
QColor errorText(const QPalette &palette = current());
QColor neutral(const QPalette &palette = current()); // greys: a lease that ran out, "other"

// A health tile: background, border, main text and hint text.
struct Tile
{
    QColor background;
    QColor border;
    QColor text;
    QColor hint;
};
enum class TileLevel { Normal, Amber, Red, Stale };
Tile tile(TileLevel level, const QPalette &palette = current());

// A style sheet for a QFrame named `objectName` and its labels: a bar in a tile's colours
// (Amber: a warning such as the stale banner; Normal: a hint).
QString bannerStyleSheet(const QString &objectName, TileLevel level);

// WCAG 2 contrast ratio of two colours, 1 (none) to 21 (black on white).
double contrastRatio(const QColor &a, const QColor &b);

// White or black, whichever reads better on `background` (an environment's badge).
QColor textOn(const QColor &background);

// A dark palette in the Fusion style's roles, for --theme dark and the tests.
QPalette darkPalette();
// outbox-dashboard --theme: "dark" (Fusion, darkPalette()), "light" (Fusion, its own light
// palette) or "system" (the platform's style and palette, the default). False with *error for
// another name; nothing changes then.
bool applyTheme(const QString &name, QString *error);

} // namespace ThemeColours
