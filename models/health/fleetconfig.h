// The outboxes of a fleet: `NAME=URL[;profile=P][;cdc-slot=S]` (the options in any order),
// given one per `--outbox` or one per line of a file (`outboxctl serve --config`; blank lines,
// lines starting with # and a `prometheus=URL` line are skipped). A name is letters, digits,
// `_`, `.` and `-` (it becomes a Prometheus label value and a window title), unique in the
// fleet; the URL must parse, the profile resolve and the slot be a replication slot's name
// (docs/cdc.md). Passwords never appear in an error. A fleet is at most MaxOutboxes outboxes
// (each gets a thread and a connection of its own), a fleet file at most MaxFileBytes; a file
// that holds a password must not be readable by group or others (as libpq refuses such a
// ~/.pgpass).
#pragma once

#include "databaseurl.h"
#include "outboxprofile.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <optional>

struct FleetEntry
{
    QString name;
    DatabaseUrl url;
    std::optional<QString> profile; // a built-in's name or a profile file; none: detected
    std::optional<OutboxProfile> resolvedProfile; // `profile` as read when the line was parsed
    // The replication slot that relays the outbox by change data capture (`;cdc-slot=`,
    // docs/cdc.md); none: not read.
    std::optional<QString> cdcSlot;
};

namespace FleetConfig {

constexpr qsizetype MaxOutboxes = 1000;
constexpr qint64 MaxFileBytes = 1024 * 1024;

// Reads a fleet's lines one at a time: each name looked up in a set (linear in the lines), each
// profile file read once however many lines name it, at most MaxOutboxes lines.
class Parser
{
public:
    // `existing`: entries already in the fleet (their names taken, counted in the cap).
    explicit Parser(const QList<FleetEntry> &existing = {});
    // One entry; nothing with *error set (one line) when it is malformed, its name is taken
    // or the fleet is full (isFull() then).
    std::optional<FleetEntry> parse(const QString &text, QString *error);
    bool isFull() const { return m_count >= MaxOutboxes; }
    // How many profiles were resolved (a file read and parsed) rather than taken from those
    // the earlier lines named: one per distinct profile.
    int profilesResolved() const { return m_resolved; }

private:
    std::optional<OutboxProfile> profile(const QString &nameOrPath, QString *error);

    QSet<QString> m_names;
    QHash<QString, OutboxProfile> m_profiles;
    qsizetype m_count = 0;
    int m_resolved = 0;
};

// A `prometheus=URL` line (the URL http:// or https://; a database URL makes it an outbox
// named "prometheus"): the fleet view reads every outbox's figures from that Prometheus
// (docs/fleet.md). Every reader of a fleet file skips it, so `outboxctl serve --config` and the
// fleet view share one file. Nothing for any other line.
std::optional<QString> prometheusUrl(const QString &line);
// The first such line's URL among `lines`.
std::optional<QString> prometheusUrl(const QStringList &lines);

// One entry; nothing with *error set (one line) when it is malformed.
std::optional<FleetEntry> parseEntry(const QString &text, QString *error);
// Every entry of `lines` (a file's, `source` naming it in errors as "FILE:LINE"), appended to
// *entries after those already there; false on the first malformed line, repeated name or line
// past MaxOutboxes.
bool parseLines(
    const QStringList &lines, const QString &source, QList<FleetEntry> *entries, QString *error);
// The file at `path` (BoundedFile: a regular file of at most MaxFileBytes), read and split in
// lines; refused when it holds a password and group or others may read it.
std::optional<QStringList> readLines(const QString &path, QString *error);
// The file at `path`, read (readLines) and parsed.
bool readFile(const QString &path, QList<FleetEntry> *entries, QString *error);
} // namespace FleetConfig
