// Reads a profile file (docs/profiles.md). Line based:
//
//   # a comment
//   name = pg-boss
//   from = pgboss.job
//   postgresql.status = CASE state WHEN 'completed' THEN 'DELIVERED'
//       WHEN 'failed' THEN 'DEAD' ELSE 'PENDING' END
//   lease_until = unavailable
//
// `field = value`; a key without an engine prefix holds for both engines, `postgresql.` or
// `sqlite.` for one; an indented line continues the value above it. Errors name the file, the
// line and the field: "x.profile:12: unknown field 'statuss'", "x.profile:3: missing '='",
// "x.profile: missing required field 'status' (required: ...)".
#pragma once

#include "outboxprofile.h"
#include "sqltext.h"

#include <QHash>
#include <QList>
#include <optional>

class ProfileParser
{
public:
    // The profile the text describes, or nothing with *error set. `origin` names the file.
    static std::optional<OutboxProfile> parse(
        const QString &text, const QString &origin, QString *error);

private:
    struct Entry
    {
        QString key; // as written, e.g. "postgresql.status"
        QString value;
        int line = 0;
    };
    using Engine = OutboxProfile::Engine;

    explicit ProfileParser(const QString &origin);

    bool split(const QString &text);
    bool accept(const Entry &entry);
    bool complete();
    bool readMeta();
    bool readTimeZone();
    bool readCdcSlot();
    bool readEngines();
    bool readStatuses();
    bool readRequired();
    bool checkStatements();
    static bool isSqlField(const QString &field);
    std::optional<Engine> readingFor(const QString &key) const; // none: every engine's
    bool checkPlaceholders();
    bool readPerEngine(const QString &field,
        std::array<QString, OutboxProfile::EngineCount> *target, bool required);
    bool readColumn(OutboxProfile::Column column);
    bool readReplay();
    bool checkReplayStatement(const Entry &entry, const QString &statement);
    void recognizeNative();
    bool readAttempts(); // profileparserattempts.cpp
    bool readActions(); // profileparseractions.cpp: resolve and reopen

    const Entry *find(const QString &field, Engine engine) const;
    const Entry *anyOf(const QString &field) const;
    bool fail(int line, const QString &message);
    bool failFile(const QString &message);

    OutboxProfile m_profile;
    QList<Entry> m_entries;
    QHash<QString, Entry> m_byKey;
    QString m_error;
};
