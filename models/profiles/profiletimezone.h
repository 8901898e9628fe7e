// The zone in which a library writes its zone-less times (a profile's `time_zone`): `utc` (the
// default), `local` (the zone of the host Outbox Health runs on) or an IANA name such as
// Europe/Berlin (the application host's zone when the tool runs elsewhere). Such a column reads
// as the wall clock in that zone; the profile's expressions turn it into milliseconds as if it
// were UTC, and this class converts those to real epoch milliseconds inside the SQL, from Qt's
// own time-zone data (the database server needs no time-zone tables: no CONVERT_TZ), and the
// other way for the `:now` a replay statement writes.
#pragma once

#include <QString>
#include <QTimeZone>
#include <optional>

class ProfileTimeZone
{
public:
    ProfileTimeZone() = default; // UTC

    // The zone a profile names, or nothing with *error saying why ("unknown time zone ...").
    static std::optional<ProfileTimeZone> fromName(const QString &name, QString *error);

    bool isUtc() const { return m_utc; }
    QString name() const { return m_name; } // as the profile wrote it; "utc" by default
    QTimeZone zone() const { return m_zone; }

    // `wallMs` (an SQL expression: the zone's wall clock as if it were UTC, in ms) as epoch ms:
    // the expression minus the zone's offset at that wall time. The offsets come from the
    // zone's transitions from 20 years before the profile was loaded to 10 years after;
    // earlier and later times take the offset at the range's ends. Unchanged for UTC.
    QString toEpochSql(const QString &wallMs) const;
    // Epoch ms as the zone's wall clock read as UTC (what a replay writes for `:now`).
    qint64 toWallClock(qint64 epochMs) const;

private:
    QString m_name = QStringLiteral("utc");
    QTimeZone m_zone = QTimeZone::utc();
    bool m_utc = true;
    qint64 m_loadedAt = 0; // the middle of the range of transitions toEpochSql() reads
};
