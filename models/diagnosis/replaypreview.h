// What a replay would do, changing nothing: how many events it would release, by type and by
// error group, which it would skip and why, when they would become due under the spread, and
// a warning when most share one PERMANENT error (they are likely to fail again). The replay
// dialog's preview and `outboxctl replay --dry-run` show it. Reads the listed events in one
// read-only transaction (one indexed lookup by event ID each).
#pragma once

#include "outboxprofile.h"
#include "replaytypes.h"

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QMetaType>
#include <QSqlDatabase>
#include <QStringList>
#include <optional>

struct ReplaySkip
{
    QString eventId;
    QString reason; // "not found", "not DEAD: it is PENDING"
};

struct ReplayPreview
{
    qint64 now = 0;
    qint64 spreadMs = 0;
    bool resetBudget = false;
    qint64 events = 0; // would be replayed
    QMap<QString, qint64> byType;
    QMap<QString, qint64> byErrorGroup; // signature -> events; NoError for none recorded
    QList<ReplaySkip> skipped;
    std::optional<qint64> firstDue; // the replayed events' new due times
    std::optional<qint64> lastDue;
    QString warning; // empty, or "likely to fail again: fix the consumer first (...)"
    QStringList onHold; // left out of a bulk selection by an on-hold marker (set by the caller)

    static inline const QString NoError = QStringLiteral("(no error recorded)");

    // `request` as Replayer::replay() would run it (its operator and reason are not needed).
    // Nothing with *error set when a statement fails.
    static std::optional<ReplayPreview> compute(const QSqlDatabase &db,
        const OutboxProfile *profile, const ReplayRequest &request, QString *error);

    // {"dry_run":true,"events":N,"by_type":{},"by_error_group":{},"skipped":[{"event_id",
    //  "reason"}],"first_due":ms|null,"last_due":ms|null,"spread_ms":N,"warning":text|null}
    QJsonObject toJson() const;
};
Q_DECLARE_METATYPE(ReplayPreview)
