// What the dashboard remembers between runs (QSettings): the window's geometry and dock state,
// the splitter, the event table's column widths, order and sort, its filter, the refresh
// interval, the Charts tab's history range, and the last database opened (its URL without any
// password, the profile asked for, read-only or not, or the demo).
#pragma once

#include "eventfilter.h"

#include <QString>
#include <optional>

class MainWindow;
class QSettings;

struct LastDatabase
{
    bool demo = false;
    QString url; // never with a password (DatabaseUrl::toStorableString)
    QString profile; // the profile asked for (a name or a file); empty = detected
    bool readOnly = false;
};

namespace WindowSettings {

void save(const MainWindow &window);
// Returns whether the table's column widths were restored (then the window does not fit them).
bool restore(MainWindow &window);

void saveFilter(QSettings &settings, const EventFilter &filter);
EventFilter loadFilter(const QSettings &settings);

// The URL is stored without its password whatever `database.url` holds.
void saveLastDatabase(const LastDatabase &database);
std::optional<LastDatabase> lastDatabase(); // none before the first database was opened

} // namespace WindowSettings
