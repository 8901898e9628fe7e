#include "payloadeditor.h"

#include "enginestatements.h"
#include "payloaddiff.h"
#include "queryerror.h"
#include "readonlytransaction.h"
#include "redaction.h"
#include "replayer.h"
#include "schema.h"
#include "sqldialect.h"
#include "timeformat.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>
#include <QSqlRecord>

namespace {

using Outcome = PayloadEditResult::Outcome;

PayloadEditResult refused(Outcome outcome, const QString &error)
{
    PayloadEditResult result;
    result.outcome = outcome;
    result.error = error;
    return result;
}

QJsonValue parsed(const QString &text)
{
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8());
    return doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object());
}

QString compact(const QJsonValue &value)
{
    const QJsonDocument doc
        = value.isArray() ? QJsonDocument(value.toArray()) : QJsonDocument(value.toObject());
    return QString::fromUtf8(doc.toJson(QJsonDocument::Compact));
}

// Puts masked redacted values back from `stored` (not revealed: the editor never saw them) and
// names every redacted value the edit changed or removed.
struct Merger
{
    Redaction::Redactor redactor;
    bool revealed = false;
    QStringList changed; // paths of redacted values changed or removed without a reveal

    QJsonValue merge(const QString &path, const QJsonValue &stored, const QJsonValue &edited)
    {
        if (stored.isObject() && edited.isObject())
            return objects(path, stored.toObject(), edited.toObject());
        if (stored.isArray() && edited.isArray()) {
            QJsonArray out = edited.toArray();
            const QJsonArray before = stored.toArray();
            for (qsizetype i = 0; i < std::min(before.size(), out.size()); ++i)
                out[i] = merge(QStringLiteral("%1[%2]").arg(path).arg(i), before.at(i), out.at(i));
            return out;
        }
        return edited;
    }

    QJsonObject objects(const QString &path, const QJsonObject &stored, QJsonObject edited)
    {
        const QString prefix = path.isEmpty() ? QString() : path + u'.';
        for (auto it = stored.constBegin(); it != stored.constEnd(); ++it) {
            const bool sensitive = redactor.isSensitiveKey(it.key());
            if (!edited.contains(it.key())) {
                if (sensitive && !revealed)
                    changed << prefix + it.key();
                continue;
            }
            const QJsonValue mine = edited.value(it.key());
            if (!sensitive)
                edited.insert(it.key(), merge(prefix + it.key(), it.value(), mine));
            else if (!revealed && mine == QJsonValue(Redaction::Mask))
                edited.insert(it.key(), it.value()); // still masked: kept as stored
            else if (!revealed && mine != it.value())
                changed << prefix + it.key();
        }
        return edited;
    }
};

} // namespace

PayloadEditor::PayloadEditor(
    const QSqlDatabase &db, const std::optional<OutboxProfile> &profile, bool readOnly)
    : m_db(db)
    , m_readOnly(readOnly)
    , m_statements(db)
    , m_job(db)
{
    if (profile && !profile->isNative())
        m_profile = profile;
}

QString PayloadEditor::refusal()
{
    const QString nothing = QStringLiteral("nothing edited");
    if (m_profile)
        return QStringLiteral("%1: edit and replay exists only on Outbox Health's own schema, "
                              "which keeps the original payload in payload_revision; %2")
            .arg(m_profile->name(), nothing);
    if (m_readOnly)
        return QStringLiteral("the connection is read-only: ") + nothing;
    QString error;
    const int version = Schema::version(m_db, &error);
    if (version < 0)
        return error;
    const QString outdated = Schema::outdatedMessage(version, NeededVersion);
    if (!outdated.isEmpty())
        return outdated + QStringLiteral("; ") + nothing;
    return {};
}

QString PayloadEditor::invalidity(const QString &payload)
{
    const QByteArray utf8 = payload.toUtf8();
    if (utf8.size() > MaxPayloadBytes)
        return QStringLiteral("the new payload is %1 bytes, larger than the %2 an edit may be")
            .arg(utf8.size())
            .arg(QStringLiteral("1 MiB"));
    QJsonParseError error;
    QJsonDocument::fromJson(utf8, &error);
    if (error.error == QJsonParseError::NoError)
        return {};
    // The offset is in bytes of UTF-8: the line and column are counted in characters.
    const QString before = QString::fromUtf8(utf8.left(error.offset));
    const qsizetype line = before.count(u'\n') + 1;
    const qsizetype column = before.size() - before.lastIndexOf(u'\n');
    return QStringLiteral("the new payload is not JSON: %1 at line %2, column %3")
        .arg(error.errorString())
        .arg(line)
        .arg(column);
}

QByteArray PayloadEditor::digest(const QString &payload)
{
    return QCryptographicHash::hash(payload.toUtf8(), QCryptographicHash::Sha256);
}

QString PayloadEditor::editableText(
    const QString &payload, const QStringList &sensitiveKeys, bool revealed)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(payload.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError)
        return revealed ? payload : Redaction::NotJson;
    const QJsonValue value = doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object());
    const QJsonValue shown
        = revealed ? value : Redaction::Redactor(sensitiveKeys).redactValue(value);
    const QJsonDocument out
        = shown.isArray() ? QJsonDocument(shown.toArray()) : QJsonDocument(shown.toObject());
    return QString::fromUtf8(out.toJson(QJsonDocument::Indented)).trimmed();
}

std::optional<QString> PayloadEditor::merged(const QString &stored, const QString &edited,
    const QStringList &sensitiveKeys, bool revealed, QString *error)
{
    Merger merger {Redaction::Redactor(sensitiveKeys), revealed, {}};
    const QJsonValue out = merger.merge(QString(), parsed(stored), parsed(edited));
    if (!merger.changed.isEmpty()) {
        *error = QStringLiteral("the edit changes or removes the redacted value of %1: reveal the "
                                "redacted values first (the reveal is recorded) to change them")
                     .arg(merger.changed.join(u", "_qs));
        return std::nullopt;
    }
    return compact(out);
}

// What needs no read of the event: a payload that may be saved, and a schema and connection that
// can (empty when both do). Who and why are OperatorJob's to ask for.
QString PayloadEditor::requestRefusal(const PayloadEditRequest &request)
{
    const QString invalid = invalidity(request.newPayload);
    if (!invalid.isEmpty())
        return invalid + QStringLiteral("; nothing edited");
    return refusal();
}

// The request against the row as read (locked, for edit()): another operator's change is a
// Conflict; otherwise the payload to store, the diff and the revision number.
PayloadEditResult PayloadEditor::compare(
    const PayloadEditRequest &request, const Stored &stored) const
{
    const QString id = request.eventId;
    if (!stored.found)
        return refused(Outcome::Refused, QStringLiteral("no event with ID '%1'").arg(id));
    if (stored.status != QLatin1String("DEAD"))
        return refused(Outcome::Conflict,
            QStringLiteral("%1 is no longer DEAD (it is %2: replayed or edited by someone else "
                           "since you opened it): nothing edited")
                .arg(id, stored.status));
    if (!request.baseDigest.isEmpty() && digest(stored.payload) != request.baseDigest)
        return refused(Outcome::Conflict,
            QStringLiteral("the payload of %1 was changed by someone else since you opened it: "
                           "nothing edited; open it again to see their change")
                .arg(id));
    if (!QJsonDocument::fromJson(stored.payload.toUtf8()).isObject()
        && !QJsonDocument::fromJson(stored.payload.toUtf8()).isArray() && !request.revealed)
        return refused(Outcome::Refused,
            QStringLiteral("the stored payload of %1 is not JSON, so it was hidden: reveal it "
                           "(recorded) to replace it")
                .arg(id));
    QString error;
    const std::optional<QString> payload = merged(
        stored.payload, request.newPayload, request.sensitiveKeys, request.revealed, &error);
    if (!payload)
        return refused(Outcome::Refused, error + QStringLiteral("; nothing edited"));
    if (parsed(*payload) == parsed(stored.payload))
        return refused(Outcome::Refused,
            QStringLiteral("the edited payload is the one %1 already has: nothing to edit (replay "
                           "it as it is instead)")
                .arg(id));
    const Redaction::Redactor redactor(request.sensitiveKeys);
    PayloadEditResult result;
    result.outcome = Outcome::Replayed;
    result.payload = *payload;
    result.revisionNo = stored.revisions + 1;
    result.diff
        = PayloadDiff::lines(stored.payload, *payload, request.revealed ? nullptr : &redactor);
    return result;
}

bool PayloadEditor::readStored(
    QSqlQuery &row, QSqlQuery &count, const QString &eventId, Stored *stored, QString *error)
{
    row.bindValue(QStringLiteral(":id"), eventId);
    if (!row.exec()) {
        *error = QueryError::text(row);
        return false;
    }
    stored->found = row.next();
    if (stored->found) {
        stored->status = row.value(0).toString();
        stored->payload = row.value(1).toString();
    }
    row.finish();
    count.bindValue(QStringLiteral(":id"), eventId);
    if (!count.exec() || !count.next()) {
        *error = QueryError::text(count);
        return false;
    }
    stored->revisions = count.value(0).toInt();
    count.finish();
    return true;
}

namespace {

// The event's stored row, locked as `lock` says.
QString rowSql(const QSqlDatabase &db, EngineStatements::RowLock lock)
{
    return SqlDialect::of(db).statements().selectSql({.columns = QStringLiteral("status, payload"),
        .table = QStringLiteral("delivery_outbox"),
        .where = QStringLiteral("event_id = :id"),
        .lock = lock});
}
const QString CountSql = QStringLiteral(
    "SELECT COALESCE(MAX(revision_no), 0) FROM payload_revision WHERE event_id = :id");

} // namespace

PayloadEditResult PayloadEditor::preview(const PayloadEditRequest &request)
{
    const QString why = requestRefusal(request);
    if (!why.isEmpty())
        return refused(Outcome::Refused, why);
    ReadOnlyTransaction transaction(m_db);
    QSqlQuery *row = transaction.prepare(rowSql(m_db, EngineStatements::RowLock::None));
    QSqlQuery *count = row ? transaction.prepare(CountSql) : nullptr;
    if (!count)
        return refused(Outcome::Failed, transaction.errorText());
    Stored stored;
    QString error;
    if (!readStored(*row, *count, request.eventId, &stored, &error))
        return refused(Outcome::Failed, error);
    return compare(request, stored);
}

std::optional<PayloadEditor::Current> PayloadEditor::current(const QString &eventId, QString *error)
{
    ReadOnlyTransaction transaction(m_db);
    QSqlQuery *row = transaction.prepare(rowSql(m_db, EngineStatements::RowLock::None));
    if (!row) {
        *error = transaction.errorText();
        return std::nullopt;
    }
    row->bindValue(QStringLiteral(":id"), eventId);
    if (!row->exec()) {
        *error = QueryError::text(*row);
        return std::nullopt;
    }
    Current found;
    if (row->next())
        found = {row->value(0).toString(), row->value(1).toString()};
    return found;
}

const OperatorWords &PayloadEditor::words()
{
    static const OperatorWords words {QStringLiteral("payload_revision"),
        QStringLiteral("who edited"), QStringLiteral("why"), QStringLiteral("editing")};
    return words;
}

// Replay's request for the one event, with the edit's who, why, when and budget reset.
ReplayRequest PayloadEditor::replayOf(const PayloadEditRequest &request)
{
    ReplayRequest replay;
    replay.eventIds = QStringList {request.eventId};
    replay.operatorName = request.operatorName;
    replay.reason = request.reason;
    replay.now = request.now;
    replay.resetBudget = request.resetBudget;
    return replay;
}

// OperatorJob's path, as replay's: who and why required, the refusals, then the one event in a
// transaction of its own (editStep). A step that finds a conflict is a skip: rolled back.
PayloadEditResult PayloadEditor::edit(const PayloadEditRequest &request)
{
    const ReplayRequest replay = replayOf(request);
    PayloadEditResult result;
    const auto refusal = [this, &request] { return requestRefusal(request); };
    const auto step = [&](const QString &, qsizetype, qsizetype, QString *error) {
        return editStep(request, replay, &result, error);
    };
    const OperatorOutcome outcome = m_job.run(replay, words(), refusal, step);
    if (outcome.total == 0) // refused before any transaction began
        return refused(Outcome::Refused, outcome.error);
    if (!outcome.done.isEmpty() || !outcome.skipped.isEmpty())
        return result; // replayed, or the conflict or refusal the step found (rolled back)
    // The job names the event ("editing E-1: ..."); the edit is of one event, which its callers
    // name themselves.
    const QString named = words().doing + u' ' + request.eventId + QStringLiteral(": ");
    const QString error
        = outcome.error.startsWith(named) ? outcome.error.mid(named.size()) : outcome.error;
    if (!outcome.unknown.isEmpty())
        return refused(Outcome::Unknown, error);
    return refused(Outcome::Failed, error + QStringLiteral(": nothing edited (rolled back)"));
}

// The row locked and read, compared with the request; then the revision and replay's own change
// with the new payload (Replayer::nativeChange), in the job's transaction.
OperatorJob::Outcome PayloadEditor::editStep(const PayloadEditRequest &request,
    const ReplayRequest &replay, PayloadEditResult *result, QString *error)
{
    using Step = OperatorJob::Outcome;
    Stored stored;
    if (!readStored(prepared(rowSql(m_db, EngineStatements::RowLock::Update)), prepared(CountSql),
            request.eventId, &stored, error))
        return Step::Failed;
    *result = compare(request, stored);
    if (!result->ok())
        return Step::Skipped; // rolled back: nothing was written
    if (!writeRevision(request, stored, *result, error))
        return Step::Failed;
    const Step replayed = m_job.change(request.eventId, replay,
        Replayer::nativeChange(replay, request.now, result->payload), error);
    if (replayed != Step::Skipped)
        return replayed;
    *error = QStringLiteral("the locked DEAD row was not changed"); // cannot happen: locked
    return Step::Failed;
}

// The payload before the edit, immutable, with what the edit set, who, why, when and whether
// the redacted values were revealed.
bool PayloadEditor::writeRevision(const PayloadEditRequest &request, const Stored &stored,
    const PayloadEditResult &change, QString *error)
{
    // clang-format off
    QSqlQuery &revision = prepared(QStringLiteral(
        "INSERT INTO payload_revision (event_id, revision_no, payload, new_payload, operator,"
        "                              reason, revealed, created_at)"
        " VALUES (:id, :no, :payload, :new, :operator, :reason, :revealed, :at)"));
    // clang-format on
    revision.bindValue(QStringLiteral(":id"), request.eventId);
    revision.bindValue(QStringLiteral(":no"), change.revisionNo);
    revision.bindValue(QStringLiteral(":payload"), stored.payload);
    revision.bindValue(QStringLiteral(":new"), change.payload);
    revision.bindValue(QStringLiteral(":operator"), request.operatorName.trimmed());
    revision.bindValue(QStringLiteral(":reason"), request.reason.trimmed());
    revision.bindValue(QStringLiteral(":revealed"), request.revealed);
    revision.bindValue(QStringLiteral(":at"), request.now);
    if (!revision.exec()) {
        *error = QueryError::text(revision);
        return false;
    }
    return true;
}

std::optional<QList<PayloadRevision>> PayloadEditor::revisions(
    const QString &eventId, QString *error)
{
    if (m_profile || m_db.record(QStringLiteral("payload_revision")).isEmpty())
        return QList<PayloadRevision> {};
    ReadOnlyTransaction transaction(m_db);
    QSqlQuery *query = transaction.prepare(
        QStringLiteral("SELECT revision_no, payload, new_payload, operator, reason, revealed,"
                       " created_at FROM payload_revision WHERE event_id = :id"
                       " ORDER BY revision_no"));
    if (!query) {
        *error = transaction.errorText();
        return std::nullopt;
    }
    query->bindValue(QStringLiteral(":id"), eventId);
    if (!query->exec()) {
        *error = QueryError::text(*query);
        return std::nullopt;
    }
    QList<PayloadRevision> out;
    while (query->next())
        out.append({query->value(0).toInt(), query->value(1).toString(), query->value(2).toString(),
            query->value(3).toString(), query->value(4).toString(), query->value(5).toBool(),
            query->value(6).toLongLong()});
    return out;
}

namespace {

// "Attempts 1–3 carried the original payload", "attempt 4 carried revision 1".
QString carried(int first, int last, int revision)
{
    const QString which = revision == 0 ? QStringLiteral("the original payload")
                                        : QStringLiteral("revision %1").arg(revision);
    if (first == last)
        return QStringLiteral("attempt %1 carried %2").arg(first).arg(which);
    return QStringLiteral("attempts %1\u2013%2 carried %3").arg(first).arg(last).arg(which);
}

} // namespace

std::optional<QStringList> PayloadEditor::lineage(
    const QString &eventId, const QStringList &sensitiveKeys, QString *error)
{
    const std::optional<QList<PayloadRevision>> found = revisions(eventId, error);
    if (!found || found->isEmpty())
        return found ? std::optional<QStringList>(QStringList {}) : std::nullopt;
    ReadOnlyTransaction transaction(m_db);
    QSqlQuery *query = transaction.prepare(
        QStringLiteral("SELECT attempt_no, claimed_at FROM delivery_attempt WHERE event_id = :id"
                       " ORDER BY attempt_no"));
    if (!query) {
        *error = transaction.errorText();
        return std::nullopt;
    }
    query->bindValue(QStringLiteral(":id"), eventId);
    if (!query->exec()) {
        *error = QueryError::text(*query);
        return std::nullopt;
    }
    const Redaction::Redactor redactor(sensitiveKeys);
    QStringList lines;
    for (const PayloadRevision &revision : *found) {
        const QStringList diff = PayloadDiff::lines(
            revision.payload, revision.newPayload, revision.revealed ? nullptr : &redactor);
        QString line = QStringLiteral("Revision %1 by %2 at %3: %4 (%5")
                           .arg(revision.number)
                           .arg(revision.operatorName, TimeFormat::time(revision.createdAt),
                               revision.reason, PayloadDiff::summary(diff));
        if (!diff.isEmpty())
            line += QStringLiteral(": ") + diff.mid(0, 3).join(QStringLiteral("; "))
                + (diff.size() > 3 ? QStringLiteral("; \u2026") : QString());
        line += revision.revealed ? QStringLiteral("; redacted values revealed)")
                                  : QStringLiteral(")");
        lines << line;
    }
    // Consecutive attempts that carried the same payload, grouped.
    QStringList groups;
    int first = 0, last = 0, current = -1;
    while (query->next()) {
        const int number = query->value(0).toInt();
        const qint64 claimedAt = query->value(1).toLongLong();
        int revision = 0;
        for (const PayloadRevision &made : *found) {
            if (made.createdAt <= claimedAt)
                revision = made.number;
        }
        if (revision != current && current >= 0)
            groups << carried(first, last, current);
        if (revision != current)
            first = number;
        current = revision;
        last = number;
    }
    if (current >= 0)
        groups << carried(first, last, current);
    if (!groups.isEmpty()) {
        groups.first()[0] = groups.first()[0].toUpper();
        lines << groups.join(QStringLiteral("; "));
    }
    return lines;
}
