// What the dashboard remembers between runs (QSettings): the window's geometry and dock state,
// the splitter, the event table's column widths, order and sort, its filter (per database), the
// refresh interval, the Charts tab's history range, and the last database opened (its URL without
// any password, the profile asked for, read-only or not, or the demo).
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

// The event table's filter is remembered per database: `--state dead` on one outbox does not
// open the demo on "No events match". The settings group of `window`'s database: the demo has
// one whatever its file; another database its URL without a password and, from a fleet, its
// name.
QString filterGroup(const MainWindow &window);
void saveFilter(QSettings &settings, const QString &group, const EventFilter &filter);
std::optional<EventFilter> loadFilter(const QSettings &settings, const QString &group);

// The URL is stored without its password whatever `database.url` holds.
void saveLastDatabase(const LastDatabase &database);
std::optional<LastDatabase> lastDatabase(); // none before the first database was opened

} // namespace WindowSettings
