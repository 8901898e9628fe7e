#include "operatornotes.h"

#include "enginestatements.h"
#include "errorgroups.h"
#include "errorsignature.h"
#include "failurecause.h"
#include "outboxprofile.h"
#include "queryerror.h"
#include "readonlytransaction.h"
#include "schema.h"
#include "sqldialect.h"
#include "sqltransaction.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>

namespace {

// C0 (but newline and tab, which a note may hold), DEL and C1: they could rewrite a terminal
// line or hide text in a log.
bool hasControl(const QString &text, bool allowLines)
{
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        if (allowLines && (u == u'\n' || u == u'\t'))
            continue;
        if (u < 0x20 || (u >= 0x7f && u < 0xa0))
            return true;
    }
    return false;
}

QVariant nullable(const QString &text)
{
    return text.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(text);
}

OperatorNote noteOf(const QSqlQuery &row)
{
    OperatorNote note;
    note.id = row.value(0).toLongLong();
    note.eventId = row.value(1).toString();
    note.errorGroup = row.value(2).toString();
    note.operatorName = row.value(3).toString();
    note.createdAt = row.value(4).toLongLong();
    note.text = row.value(5).toString();
    note.marker = row.value(6).toString();
    if (!row.value(7).isNull())
        note.clearedAt = row.value(7).toLongLong();
    note.clearedBy = row.value(8).toString();
    return note;
}

} // namespace

QJsonObject OperatorNote::toJson() const
{
    const auto text = [](const QString &value) {
        return value.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(value);
    };
    return {{u"note_id"_qs, id}, {u"event_id"_qs, text(eventId)},
        {u"error_group"_qs, text(errorGroup)}, {u"operator"_qs, operatorName},
        {u"created_at"_qs, createdAt}, {u"text"_qs, this->text}, {u"marker"_qs, text(marker)},
        {u"cleared_at"_qs, clearedAt ? QJsonValue(*clearedAt) : QJsonValue(QJsonValue::Null)},
        {u"cleared_by"_qs, text(clearedBy)}};
}

OperatorNotes::OperatorNotes(const QSqlDatabase &db, const OutboxProfile *profile)
    : m_db(db)
    , m_notes(db)
    , m_profile(profile && !profile->isNative() ? profile : nullptr)
{ }

OperatorNotes::OperatorNotes(const QSqlDatabase &db, const OutboxProfile *profile,
    const QSqlDatabase &notesDb, const QString &refusal)
    : m_db(db)
    , m_notes(notesDb)
    , m_separate(true)
    , m_refusal(refusal)
    , m_profile(profile && !profile->isNative() ? profile : nullptr)
{ }

QString OperatorNotes::unavailable() const
{
    if (m_profile && !m_separate)
        return QStringLiteral("notes are not available through the %1 profile: notes need the "
                              "native schema (its operator_note table), and this outbox is "
                              "another application's; give --notes-db URL, a native database of "
                              "Outbox Health's own (`outboxctl init --db URL` makes one), to keep "
                              "them there")
            .arg(m_profile->name());
    if (m_separate) // checked by NotesAccess when the connection was opened (or opened again)
        return m_refusal;
    QString error;
    const int version = Schema::version(m_notes, &error);
    if (version < 0)
        return error;
    return Schema::outdatedMessage(version, NotesVersion);
}

QString OperatorNotes::invalid(const NoteRequest &request)
{
    const QString name = request.operatorName.trimmed();
    if (name.isEmpty())
        return QStringLiteral("the operator is required: the note records who wrote it");
    if (name.size() > MaxOperatorLength)
        return QStringLiteral("the operator name is %1 characters long; at most %2")
            .arg(name.size())
            .arg(MaxOperatorLength);
    if (hasControl(name, false))
        return QStringLiteral("the operator name holds control characters");
    if (request.text.trimmed().isEmpty())
        return QStringLiteral("the note's text is required and must not be blank");
    if (request.text.size() > MaxTextLength)
        return QStringLiteral("the note is %1 characters long; at most %2: nothing written")
            .arg(request.text.size())
            .arg(MaxTextLength);
    if (hasControl(request.text, true))
        return QStringLiteral("the note holds control characters (only newlines and tabs may "
                              "be in it): nothing written");
    if (request.target.isEvent() == !request.target.errorGroup.trimmed().isEmpty())
        return QStringLiteral("a note is on exactly one event or one error group");
    if (!request.marker.isEmpty() && request.marker != Investigating && request.marker != OnHold)
        return QStringLiteral("unknown marker '%1' (expected investigating or on-hold)")
            .arg(request.marker);
    return {};
}

// Empty when the error group has DEAD events; the refusal otherwise. Read before the write
// transaction (the group's events are found in a read-only one).
QString OperatorNotes::checkGroup(const QString &signature)
{
    QString error;
    const auto ids = ErrorGroups::deadEventIds(m_db, m_profile, signature, &error);
    if (!ids)
        return error;
    if (ids->isEmpty())
        return QStringLiteral("no DEAD event has the error signature '%1' (outboxctl errors "
                              "lists them): nothing written")
            .arg(signature);
    return {};
}

// Empty when event `eventId` exists and is DEAD, with `lock`: locked (in the transaction
// open on m_db) until the note is written; the refusal otherwise.
QString OperatorNotes::checkEvent(const QString &eventId, bool lock)
{
    QSqlQuery status(m_db);
    QSqlError refused;
    using Lock = EngineStatements::RowLock;
    const SqlDialect &dialect = SqlDialect::of(m_db);
    const QString sql = dialect.statements().selectSql({.columns = u"status"_qs,
        .table = OutboxProfile::sourceOf(m_profile, m_db),
        .where = u"event_id = :id"_qs,
        .lock = lock ? Lock::Update : Lock::None});
    if (!dialect.prepareOne(m_db, status, sql, &refused))
        return QueryError::text(refused);
    status.bindValue(u":id"_qs, eventId);
    if (!status.exec())
        return QueryError::text(status);
    if (!status.next())
        return QStringLiteral("no event with ID '%1': nothing written").arg(eventId);
    if (status.value(0).toString() != u"DEAD"_qs)
        return QStringLiteral("event '%1' is %2, not DEAD: notes are for DEAD events; "
                              "nothing written")
            .arg(eventId, status.value(0).toString());
    return {};
}

std::optional<qint64> OperatorNotes::add(const NoteRequest &request, QString *error)
{
    if (*error = unavailable(); !error->isEmpty())
        return std::nullopt;
    if (*error = invalid(request); !error->isEmpty())
        return std::nullopt;
    const QString group = request.target.isEvent()
        ? QString()
        : ErrorSignature::of(request.target.errorGroup.trimmed());
    if (!group.isEmpty()) {
        if (*error = checkGroup(group); !error->isEmpty())
            return std::nullopt;
    }
    if (m_separate) { // the outbox only read (another application's), the note written apart
        if (request.target.isEvent()) {
            ReadOnlyTransaction read(m_db);
            if (!read.isActive()) {
                *error = read.errorText();
                return std::nullopt;
            }
            if (*error = checkEvent(request.target.eventId, false); !error->isEmpty())
                return std::nullopt;
        }
        SqlTransaction transaction(m_notes);
        if (!transaction.isActive()) {
            *error = transaction.errorText();
            healAfter(*error);
            return std::nullopt;
        }
        const auto noteId = insert(request, group, error);
        if (!noteId || !transaction.commit()) {
            if (noteId)
                *error = transaction.errorText();
            healAfter(*error);
            return std::nullopt;
        }
        return noteId;
    }
    SqlTransaction transaction(m_db);
    if (!transaction.isActive()) {
        *error = transaction.errorText();
        return std::nullopt;
    }
    // Read, not locked: a row lock needs UPDATE on the outbox (PostgreSQL, MySQL 8), and a note
    // needs only INSERT on operator_note. An event replayed in between keeps a harmless note.
    if (request.target.isEvent()) {
        if (*error = checkEvent(request.target.eventId, false); !error->isEmpty())
            return std::nullopt;
    }
    const auto noteId = insert(request, group, error);
    if (!noteId)
        return std::nullopt;
    if (!transaction.commit()) {
        *error = transaction.errorText();
        return std::nullopt;
    }
    return noteId;
}

// The INSERT in the transaction open on m_notes; the new note's own ID, as the engine gives it
// (RETURNING, or the driver's last insert ID: never a read that another session's note, by the
// same operator at the same time, could answer).
std::optional<qint64> OperatorNotes::insert(
    const NoteRequest &request, const QString &group, QString *error)
{
    const QString columns = u"event_id, error_group, operator, created_at, text, marker"_qs;
    const QString values = u":event, :group, :operator, :at, :text, :marker"_qs;
    QString sql = SqlDialect::of(m_notes).statements().insertReturningSql(
        u"operator_note"_qs, columns, values, u"note_id"_qs);
    const bool returning = !sql.isEmpty();
    if (!returning)
        sql = u"INSERT INTO operator_note ("_qs + columns + u") VALUES ("_qs + values + u')';
    QSqlQuery insert(m_notes);
    insert.prepare(sql);
    insert.bindValue(u":event"_qs, nullable(request.target.eventId));
    insert.bindValue(u":group"_qs, nullable(group));
    insert.bindValue(u":operator"_qs, request.operatorName.trimmed());
    insert.bindValue(u":at"_qs, request.now);
    insert.bindValue(u":text"_qs, request.text);
    insert.bindValue(u":marker"_qs, nullable(request.marker));
    if (!insert.exec()) {
        *error = QueryError::text(insert);
        return std::nullopt;
    }
    const QVariant id
        = returning ? (insert.next() ? insert.value(0) : QVariant()) : insert.lastInsertId();
    insert.finish();
    if (!id.isValid() || id.toLongLong() <= 0) {
        *error = QStringLiteral("the database did not say which ID the new note got: nothing "
                                "written");
        return std::nullopt;
    }
    return id.toLongLong();
}

// A notes connection that failed because its server went away is closed: the next
// NotesAccess::open opens it again (the outbox's own connection heals with its owner).
void OperatorNotes::healAfter(const QString &error)
{
    if (m_separate && m_notes.isOpen() && FailureCause::of(error).unreachable)
        m_notes.close();
}

std::optional<QList<OperatorNote>> OperatorNotes::list(
    const NoteTarget &target, bool withCleared, QString *error)
{
    if (*error = unavailable(); !error->isEmpty())
        return std::nullopt;
    QString where = withCleared ? u"1 = 1"_qs : u"cleared_at IS NULL"_qs;
    if (target.isEvent())
        where += u" AND event_id = :event"_qs;
    else if (!target.errorGroup.isEmpty())
        where += u" AND error_group = :group"_qs;
    ReadOnlyTransaction transaction(m_notes);
    QSqlQuery *query = transaction.prepare(
        u"SELECT note_id, event_id, error_group, operator, created_at, text, marker,"
        " cleared_at, cleared_by FROM operator_note WHERE "_qs
        + where + u" ORDER BY created_at, note_id"_qs);
    if (!query) {
        *error = transaction.errorText();
        healAfter(*error);
        return std::nullopt;
    }
    if (target.isEvent())
        query->bindValue(u":event"_qs, target.eventId);
    else if (!target.errorGroup.isEmpty())
        query->bindValue(u":group"_qs, ErrorSignature::of(target.errorGroup));
    if (!query->exec()) {
        *error = QueryError::text(*query);
        healAfter(*error);
        return std::nullopt;
    }
    QList<OperatorNote> notes;
    while (query->next())
        notes.append(noteOf(*query));
    return notes;
}

std::optional<QList<OperatorNote>> OperatorNotes::listFor(
    const QStringList &eventIds, const QStringList &signatures, QString *error)
{
    if (eventIds.isEmpty() && signatures.isEmpty())
        return QList<OperatorNote> {};
    const auto marks = [](qsizetype count) { return QStringList(count, u"?"_qs).join(u", "_qs); };
    QStringList where;
    if (!eventIds.isEmpty())
        where << u"event_id IN ("_qs + marks(eventIds.size()) + u')';
    if (!signatures.isEmpty())
        where << u"error_group IN ("_qs + marks(signatures.size()) + u')';
    ReadOnlyTransaction transaction(m_notes);
    QSqlQuery *query = transaction.prepare(
        u"SELECT note_id, event_id, error_group, operator, created_at, text, marker,"
        " cleared_at, cleared_by FROM operator_note WHERE cleared_at IS NULL AND ("_qs
        + where.join(u" OR "_qs) + u") ORDER BY created_at, note_id"_qs);
    if (!query) {
        *error = transaction.errorText();
        return std::nullopt;
    }
    for (const QString &id : eventIds)
        query->addBindValue(id);
    for (const QString &signature : signatures)
        query->addBindValue(signature);
    if (!query->exec()) {
        *error = QueryError::text(*query);
        return std::nullopt;
    }
    QList<OperatorNote> notes;
    while (query->next())
        notes.append(noteOf(*query));
    return notes;
}

std::optional<int> OperatorNotes::clear(const NoteTarget &target, qint64 noteId,
    const QString &operatorName, qint64 now, QString *error)
{
    if (*error = unavailable(); !error->isEmpty())
        return std::nullopt;
    const QString name = operatorName.trimmed();
    if (name.isEmpty() || name.size() > MaxOperatorLength || hasControl(name, false)) {
        *error = name.isEmpty()
            ? QStringLiteral("the operator is required: a cleared note records who cleared it")
            : QStringLiteral("the operator name is too long or holds control characters");
        return std::nullopt;
    }
    QString where;
    QVariant value;
    if (noteId > 0) {
        where = u"note_id = :value"_qs;
        value = noteId;
    } else if (target.isEvent()) {
        where = u"event_id = :value"_qs;
        value = target.eventId;
    } else if (!target.errorGroup.trimmed().isEmpty()) {
        where = u"error_group = :value"_qs;
        value = ErrorSignature::of(target.errorGroup.trimmed());
    } else {
        *error = QStringLiteral("say which notes to clear: a note ID, an event or an error group");
        return std::nullopt;
    }
    SqlTransaction transaction(m_notes);
    if (!transaction.isActive()) {
        *error = transaction.errorText();
        healAfter(*error);
        return std::nullopt;
    }
    QSqlQuery update(m_notes);
    update.prepare(u"UPDATE operator_note SET cleared_at = :at, cleared_by = :operator"
                   " WHERE cleared_at IS NULL AND "_qs
        + where);
    update.bindValue(u":at"_qs, now);
    update.bindValue(u":operator"_qs, name);
    update.bindValue(u":value"_qs, value);
    if (!update.exec()) {
        *error = QueryError::text(update);
        healAfter(*error);
        return std::nullopt;
    }
    const int cleared = update.numRowsAffected();
    if (!transaction.commit()) {
        *error = transaction.errorText();
        healAfter(*error);
        return std::nullopt;
    }
    return cleared;
}

std::optional<NoteCoverage> OperatorNotes::coverage(QString *error)
{
    if (*error = unavailable(); !error->isEmpty())
        return std::nullopt;
    NoteCoverage coverage;
    QHash<QString, QString> eventMarkers; // event ID -> strongest marker (apart only)
    QHash<QString, QString> groupMarkers; // signature -> strongest marker
    const auto strengthen = [](QString &strongest, const QString &marker) {
        if (strongest != OnHold)
            strongest = marker;
    };
    {
        ReadOnlyTransaction transaction(m_notes);
        // The marked events that are still DEAD, and the marked groups. Notes kept apart from
        // the outbox cannot be joined to it: their marked events are asked of it below.
        QSqlQuery *query = transaction.prepare(m_separate
                ? u"SELECT event_id, error_group, marker FROM operator_note"
                  " WHERE cleared_at IS NULL AND marker IS NOT NULL"_qs
                : u"SELECT n.event_id, n.error_group, n.marker FROM operator_note n"
                  " LEFT JOIN delivery_outbox o ON o.event_id = n.event_id"
                  " WHERE n.cleared_at IS NULL AND n.marker IS NOT NULL"
                  "   AND (n.error_group IS NOT NULL OR o.status = 'DEAD')"_qs);
        if (!query || !query->exec()) {
            *error = query ? QueryError::text(*query) : transaction.errorText();
            healAfter(*error);
            return std::nullopt;
        }
        while (query->next()) {
            const QString marker = query->value(2).toString();
            if (!query->value(0).isNull()) {
                if (m_separate)
                    strengthen(eventMarkers[query->value(0).toString()], marker);
                else
                    (marker == OnHold ? coverage.onHold : coverage.investigating)
                        .insert(query->value(0).toString());
                continue;
            }
            strengthen(groupMarkers[query->value(1).toString()], marker);
        }
    }
    if (!eventMarkers.isEmpty()) {
        QSet<QString> dead;
        if (!deadAmong(eventMarkers.keys(), &dead, error))
            return std::nullopt;
        for (const QString &id : std::as_const(dead))
            (eventMarkers.value(id) == OnHold ? coverage.onHold : coverage.investigating)
                .insert(id);
    }
    const QList<QString> signatures = groupMarkers.keys();
    const auto groups = ErrorGroups::deadEventsBySignature(
        m_db, m_profile, QSet<QString>(signatures.cbegin(), signatures.cend()), error);
    if (!groups)
        return std::nullopt;
    for (auto it = groups->cbegin(); it != groups->cend(); ++it) {
        QSet<QString> &into
            = groupMarkers.value(it.key()) == OnHold ? coverage.onHold : coverage.investigating;
        for (const QString &id : it.value())
            into.insert(id);
    }
    coverage.investigating.subtract(coverage.onHold);
    return coverage;
}

// Which of `ids` are DEAD events of the outbox, asked in batches (one bound JSON array each),
// in one read-only transaction.
bool OperatorNotes::deadAmong(const QStringList &ids, QSet<QString> *dead, QString *error)
{
    constexpr qsizetype BatchIds = 500;
    ReadOnlyTransaction transaction(m_db);
    QSqlQuery *query = transaction.prepare(u"SELECT event_id FROM "_qs
        + OutboxProfile::sourceOf(m_profile, m_db) + u" WHERE status = 'DEAD' AND event_id IN ("_qs
        + SqlDialect::of(m_db).idSetSelect(u":ids"_qs) + u')');
    if (!query) {
        *error = transaction.errorText();
        return false;
    }
    for (qsizetype from = 0; from < ids.size(); from += BatchIds) {
        const QStringList batch = ids.mid(from, BatchIds);
        query->bindValue(u":ids"_qs,
            QString::fromUtf8(
                QJsonDocument(QJsonArray::fromStringList(batch)).toJson(QJsonDocument::Compact)));
        if (!query->exec()) {
            *error = QueryError::text(*query);
            return false;
        }
        while (query->next())
            dead->insert(query->value(0).toString());
    }
    return true;
}

std::optional<QStringList> OperatorNotes::leaveOutOnHold(QStringList *ids, QString *error)
{
    if (ids->isEmpty() || !unavailable().isEmpty())
        return QStringList {};
    const auto covered = coverage(error);
    if (!covered)
        return std::nullopt;
    QStringList kept, onHold;
    for (const QString &id : std::as_const(*ids))
        (covered->onHold.contains(id) ? onHold : kept) << id;
    *ids = kept;
    return onHold;
}

QString OperatorNotes::deadText(qint64 dead, const NoteCoverage &coverage)
{
    return deadText(dead, coverage.onHold.size(), coverage.investigating.size());
}

QString OperatorNotes::deadText(qint64 dead, qint64 onHold, qint64 investigating)
{
    QString text = QStringLiteral("%1 DEAD").arg(dead);
    QStringList parts;
    if (onHold > 0)
        parts << QStringLiteral("%1 on hold").arg(onHold);
    if (investigating > 0)
        parts << QStringLiteral("%1 investigating").arg(investigating);
    return parts.isEmpty() ? text : text + u" ("_qs + parts.join(u", "_qs) + u')';
}
