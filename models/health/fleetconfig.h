// The outboxes of a fleet: `NAME=URL[;profile=P]`, given one per `--outbox` or one per line of a
// file (`outboxctl serve --config`; blank lines and lines starting with # are skipped). A name is
// letters, digits, `_`, `.` and `-` (it becomes a Prometheus label value and a window title),
// unique in the fleet; the URL must parse and the profile resolve. Passwords never appear in
// an error.
#pragma once

#include "databaseurl.h"

#include <QList>
#include <QString>
#include <optional>

struct FleetEntry
{
    QString name;
    DatabaseUrl url;
    std::optional<QString> profile; // a built-in's name or a profile file; none: detected
};

namespace FleetConfig {

// One entry; nothing with *error set (one line) when it is malformed.
std::optional<FleetEntry> parseEntry(const QString &text, QString *error);
// Every entry of `lines` (a file's, `source` naming it in errors as "FILE:LINE"), appended to
// *entries after those already there; false on the first malformed line or repeated name.
bool parseLines(
    const QStringList &lines, const QString &source, QList<FleetEntry> *entries, QString *error);
// The file at `path`, read and parsed.
bool readFile(const QString &path, QList<FleetEntry> *entries, QString *error);

} // namespace FleetConfig
