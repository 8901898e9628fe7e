#include "errorgroups.h"

#include "errorsignature.h"
#include "notesaccess.h"
#include "queryerror.h"
#include "sourcereader.h"
#include "sqldialect.h"

#include <QJsonArray>
#include <QSqlQuery>
#include <algorithm>

namespace {

// The rows of one state, each with its last failure time (the attempt history's newest
// RETRY or DEAD attempt: on the native schema through delivery_attempt_event; through a
// profile's attempt mapping one grouped read of the mapped attempts, each event's newest
// AttemptMapping::ReadLimit), or NULL.
QString failedRows(const SourceReader &reader, const QString &status)
{
    QString failedAt = u"CAST(NULL AS "_qs + reader.dialect().integerType() + u")"_qs;
    QString joined;
    if (reader.hasAttemptHistory()) {
        failedAt = u"(SELECT MAX(a.finished_at) FROM delivery_attempt a WHERE a.event_id = "
                   u"delivery_outbox.event_id AND a.outcome IN ('RETRY', 'DEAD'))"_qs;
    } else if (reader.hasAttemptList()) {
        failedAt = u"failures_seen.failed_at"_qs;
        joined = u" LEFT JOIN (SELECT event_id, MAX(finished_at) AS failed_at FROM "_qs
            + reader.attemptSource()
            + u" WHERE outcome IN ('RETRY', 'DEAD') GROUP BY event_id) AS failures_seen"
              u" ON failures_seen.event_id = delivery_outbox.event_id"_qs;
    }
    return u"SELECT last_error, last_error_category, event_type, status, "_qs + failedAt
        + u" AS failed_at FROM "_qs + reader.source() + joined + u" WHERE status = '"_qs + status
        + u"' AND last_error IS NOT NULL"_qs;
}

void merge(ErrorGroup *group, const QSqlQuery &row, QMap<QString, qint64> *categories)
{
    const qint64 count = row.value(4).toLongLong();
    group->count += count;
    if (row.value(3).toString() == QLatin1String("DEAD"))
        group->dead += count;
    group->eventTypes[row.value(2).toString()] += count;
    if (!row.value(1).isNull())
        (*categories)[row.value(1).toString()] += count;
    if (group->example.isEmpty())
        group->example = row.value(0).toString();
    const auto earlier = [](std::optional<qint64> a, qint64 b) { return a ? std::min(*a, b) : b; };
    const auto later = [](std::optional<qint64> a, qint64 b) { return a ? std::max(*a, b) : b; };
    if (!row.value(5).isNull())
        group->firstSeen = earlier(group->firstSeen, row.value(5).toLongLong());
    if (!row.value(6).isNull())
        group->lastSeen = later(group->lastSeen, row.value(6).toLongLong());
}

QString commonest(const QMap<QString, qint64> &counts)
{
    QString best;
    qint64 most = 0;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        if (it.value() > most) {
            best = it.key();
            most = it.value();
        }
    }
    return best;
}

bool noErrors(const SourceReader &reader, QString *error)
{
    if (reader.has(OutboxProfile::Column::LastError))
        return false;
    *error = QStringLiteral("profile %1 has no last_error: failures cannot be grouped")
                 .arg(reader.profileName());
    return true;
}

} // namespace

QStringList ErrorGroup::typesByCount() const
{
    QStringList types = eventTypes.keys();
    std::stable_sort(types.begin(), types.end(), [this](const QString &a, const QString &b) {
        return eventTypes.value(a) > eventTypes.value(b);
    });
    return types;
}

QJsonObject ErrorGroup::toJson() const
{
    QJsonObject types;
    for (auto it = eventTypes.cbegin(); it != eventTypes.cend(); ++it)
        types.insert(it.key(), it.value());
    const auto time = [](std::optional<qint64> value) {
        return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
    };
    QJsonObject json {{u"signature"_qs, signature}, {u"error_group"_qs, signature},
        {u"count"_qs, count}, {u"dead"_qs, dead}, {u"retrying"_qs, retrying()},
        {u"category"_qs, category.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(category)},
        {u"event_types"_qs, types}, {u"first_seen"_qs, time(firstSeen)},
        {u"last_seen"_qs, time(lastSeen)}, {u"example"_qs, example}};
    if (!note.isEmpty() || !marker.isEmpty()) {
        json.insert(u"marker"_qs, marker.isEmpty() ? QJsonValue(QJsonValue::Null) : marker);
        json.insert(u"note"_qs, note);
        json.insert(u"note_by"_qs, noteBy);
    }
    return json;
}

namespace ErrorGroups {

std::optional<QList<ErrorGroup>> read(
    const QSqlDatabase &db, const OutboxProfile *profile, QString *error, int limit)
{
    SourceReader reader(db, profile);
    if (noErrors(reader, error))
        return std::nullopt;
    // clang-format off
    QSqlQuery *query = reader.run(reader.limited(
        u"SELECT SUBSTR(last_error, 1, :length), last_error_category, event_type, status,"
        "        COUNT(*), MIN(failed_at), MAX(failed_at)"
        " FROM ("_qs + failedRows(reader, u"PENDING"_qs) + u" UNION ALL "_qs
        + failedRows(reader, u"DEAD"_qs) + u") AS failed"
        " GROUP BY 1, 2, 3, 4 ORDER BY 5 DESC"_qs, u":limit"_qs),
        {{u":length"_qs, ErrorSignature::ReadLength}, {u":limit"_qs, limit}});
    // clang-format on
    if (!query) {
        *error = reader.errorText();
        return std::nullopt;
    }
    QMap<QString, ErrorGroup> groups;
    QMap<QString, QMap<QString, qint64>> categories;
    while (query->next()) {
        const QString signature = ErrorSignature::of(query->value(0).toString());
        ErrorGroup &group = groups[signature];
        group.signature = signature;
        merge(&group, *query, &categories[signature]);
    }
    QList<ErrorGroup> list;
    for (ErrorGroup &group : groups) {
        group.category = commonest(categories.value(group.signature));
        list.append(group);
    }
    std::stable_sort(list.begin(), list.end(),
        [](const ErrorGroup &a, const ErrorGroup &b) { return a.count > b.count; });
    return list;
}

void addNotes(const QSqlDatabase &db, const OutboxProfile *profile, QList<ErrorGroup> *groups)
{
    if (groups->isEmpty())
        return;
    OperatorNotes notes = NotesAccess::open(db, profile);
    if (!notes.unavailable().isEmpty())
        return; // no notes here (a profile, an older schema): the groups stand without them
    QString error;
    const auto all = notes.list({}, false, &error); // one statement for every group
    if (!all)
        return;
    QHash<QString, OperatorNote> newest;
    QHash<QString, QString> marker;
    for (const OperatorNote &note : *all) {
        if (note.errorGroup.isEmpty())
            continue;
        newest.insert(note.errorGroup, note); // oldest first: the last one stays
        if (note.marker == OperatorNotes::OnHold || marker.value(note.errorGroup).isEmpty())
            marker.insert(note.errorGroup, note.marker);
    }
    for (ErrorGroup &group : *groups) {
        const auto found = newest.constFind(group.signature);
        if (found == newest.constEnd())
            continue;
        group.note = found->text;
        group.noteBy = found->operatorName;
        group.marker = marker.value(group.signature);
    }
}

std::optional<QStringList> deadEventIds(
    const QSqlDatabase &db, const OutboxProfile *profile, const QString &signature, QString *error)
{
    const QString wanted = ErrorSignature::of(signature);
    const auto found = deadEventsBySignature(db, profile, {wanted}, error);
    if (!found)
        return std::nullopt;
    return found->value(wanted);
}

std::optional<QHash<QString, QStringList>> deadEventsBySignature(const QSqlDatabase &db,
    const OutboxProfile *profile, const QSet<QString> &signatures, QString *error)
{
    QHash<QString, QStringList> found;
    if (signatures.isEmpty())
        return found;
    SourceReader reader(db, profile);
    if (noErrors(reader, error))
        return std::nullopt;
    // Keyset pages of DEAD rows: MySQL's driver holds a whole result in memory at once.
    constexpr int PageRows = 1000;
    // clang-format off
    QSqlQuery *query = reader.prepare(reader.limited(
        u"SELECT event_id, SUBSTR(last_error, 1, :length) FROM "_qs + reader.source()
        + u" WHERE status = 'DEAD' AND last_error IS NOT NULL"
          "   AND (:first = 1 OR event_id > :after)"
          " ORDER BY event_id"_qs, QString::number(PageRows)));
    // clang-format on
    if (!query) {
        *error = reader.errorText();
        return std::nullopt;
    }
    QString after;
    for (bool first = true;; first = false) {
        query->bindValue(u":length"_qs, ErrorSignature::ReadLength);
        query->bindValue(u":first"_qs, first ? 1 : 0);
        query->bindValue(u":after"_qs, after);
        if (!query->exec()) {
            *error = QueryError::text(*query);
            return std::nullopt;
        }
        int rows = 0;
        while (query->next()) {
            ++rows;
            after = query->value(0).toString();
            const QString signature = ErrorSignature::of(query->value(1).toString());
            if (signatures.contains(signature))
                found[signature] << after;
        }
        if (rows < PageRows)
            return found;
    }
}

} // namespace ErrorGroups
