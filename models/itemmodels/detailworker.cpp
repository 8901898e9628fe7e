#include "detailworker.h"

#include "attemptmodel.h"
#include "enginestatements.h"
#include "notesaccess.h"
#include "payloadeditor.h"
#include "queryerror.h"
#include "readonlytransaction.h"
#include "redaction.h"
#include "replaylogmodel.h"
#include "sqldialect.h"

#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>
#include <QThread>

namespace {

// The newest resolve_log row of a RESOLVED event: who closed it, when and why.
bool readResolution(const QSqlDatabase &db, EventDetail *detail)
{
    QSqlQuery query(db);
    // clang-format off
    if (!query.prepare(SqlDialect::of(db).statements().limitedSql(
            u"SELECT operator, resolved_at, reason FROM resolve_log"
            " WHERE event_id = :id ORDER BY resolve_id DESC"_qs, u"1"_qs))) {
        // clang-format on
        detail->error = QueryError::text(query);
        return false;
    }
    query.bindValue(u":id"_qs, detail->eventId);
    if (!query.exec()) {
        detail->error = QueryError::text(query);
        return false;
    }
    if (query.next())
        detail->resolution = EventResolution {
            query.value(0).toString(), query.value(1).toLongLong(), query.value(2).toString()};
    return true;
}

} // namespace

DetailWorker::DetailWorker(const DatabaseUrl &url, const OpenOptions &options, QObject *parent)
    : QObject(parent)
    , m_connection(url, options)
{ }

// Runs on the worker thread, where the connection was opened.
DetailWorker::~DetailWorker() = default;

void DetailWorker::setProfile(const OutboxProfile &profile)
{
    m_deadExplanation.reset();
    if (profile.isNative())
        m_profile.reset();
    else
        m_profile = profile;
}

QSqlDatabase DetailWorker::database(QString *error)
{
    Q_ASSERT(QThread::currentThread() == thread());
    DbConnection *connection = m_connection.get(error);
    return connection ? connection->database() : QSqlDatabase();
}

QString DetailWorker::source(const QSqlDatabase &db) const
{
    return OutboxProfile::sourceOf(m_profile, db);
}

bool DetailWorker::readSummary(const QSqlDatabase &db, EventDetail *detail)
{
    ReadOnlyTransaction transaction(db); // the source may be a profile's SQL
    QSqlQuery *query = transaction.prepare(
        QStringLiteral("SELECT event_type, aggregate_type, aggregate_id, status, failures,"
                       " last_error_category, last_error FROM ")
        + source(db) + QStringLiteral(" WHERE event_id = :id"));
    if (!query) {
        detail->error = transaction.errorText();
        return false;
    }
    query->bindValue(QStringLiteral(":id"), detail->eventId);
    if (!query->exec()) {
        detail->error = QueryError::text(*query);
        return false;
    }
    detail->found = query->next();
    if (query->lastError().isValid()) {
        detail->error = QueryError::text(*query);
        return false;
    }
    if (detail->found)
        detail->summary = {query->value(0).toString(), query->value(1).toString(),
            query->value(2).toString(), query->value(3).toString(), query->value(4).toInt(),
            query->value(5), query->value(6)};
    return true;
}

// The explanation reads the row again (and, for a DEAD event, which others share its error) in
// a read-only transaction of its own. Not being able to explain does not fail the detail.
void DetailWorker::explain(const QSqlDatabase &db, EventDetail *detail, qint64 now)
{
    const EventSummary &row = detail->summary;
    const bool dead = row.status == QLatin1String("DEAD");
    if (dead && m_deadExplanation && m_deadExplanation->eventId == detail->eventId
        && m_deadExplanation->failures == row.failures
        && m_deadExplanation->lastError == row.lastError
        && m_deadExplanation->age.elapsed() < DeadExplanationReuseMs) {
        detail->explanation = m_deadExplanation->text;
        detail->explainedState = row.status;
        return;
    }
    const auto explanation = EventExplainer::explain(db, detail->eventId, now,
        &detail->explanationError, m_profile ? &*m_profile : nullptr, m_explain);
    if (!explanation)
        return;
    detail->explanation = explanation->text(Advice::Surface::Window);
    detail->explainedState = explanation->state;
    detail->explanationError.clear();
    if (dead && explanation->state == QLatin1String("DEAD")) {
        m_deadExplanation = DeadExplanation {
            detail->eventId, row.failures, row.lastError, detail->explanation, {}};
        m_deadExplanation->age.start();
    }
}

void DetailWorker::readNotes(const QSqlDatabase &db, EventDetail *detail)
{
    OperatorNotes notes = NotesAccess::open(db, m_profile ? &*m_profile : nullptr);
    detail->notesUnavailable = notes.unavailable();
    if (!detail->notesUnavailable.isEmpty())
        return;
    const auto own = notes.list({detail->eventId, {}}, false, &detail->notesError);
    if (!own)
        return;
    detail->notes = *own;
    const QString lastError = detail->summary.lastError.toString();
    if (lastError.isEmpty())
        return;
    const auto group = notes.list({{}, lastError}, false, &detail->notesError);
    if (group)
        detail->notes += *group;
}

bool DetailWorker::readDetail(EventDetail *detail, qint64 now)
{
    const QSqlDatabase db = database(&detail->error);
    if (!db.isValid() || !readSummary(db, detail))
        return false;
    if (detail->found) {
        explain(db, detail, now);
        readNotes(db, detail);
    }
    if (!detail->found)
        return true;
    if (!native())
        return readProfileAttempts(db, detail);
    const auto attempts = AttemptModel::readRows(
        db, nullptr, detail->eventId, &detail->error, &detail->attemptsCut);
    const auto replays
        = attempts ? ReplayLogModel::readRows(db, detail->eventId, &detail->error) : std::nullopt;
    const auto lease = replays ? AttemptModel::readLeaseUntil(db, detail->eventId, &detail->error)
                               : std::nullopt;
    if (!attempts || !replays || !lease)
        return false;
    detail->attempts = *attempts;
    detail->replays = *replays;
    detail->leaseUntil = *lease;
    const auto lineage = PayloadEditor(db).lineage(
        detail->eventId, Redaction::dashboardSensitiveKeys(), &detail->error);
    if (!lineage)
        return false;
    detail->revisions = *lineage;
    if (detail->summary.status == QLatin1String("RESOLVED"))
        return readResolution(db, detail);
    return true;
}

// Another schema's attempts, where its profile maps them (a related table, a JSON array).
bool DetailWorker::readProfileAttempts(const QSqlDatabase &db, EventDetail *detail)
{
    if (!m_profile->hasAttemptList())
        return true;
    const auto attempts = AttemptModel::readRows(db, &*m_profile, detail->eventId, &detail->error,
        &detail->attemptsCut, detail->summary.status);
    if (!attempts)
        return false;
    detail->attempts = *attempts;
    return true;
}

void DetailWorker::readDetail(quint64 requestId, const QString &eventId, qint64 now)
{
    Q_ASSERT(QThread::currentThread() == thread());
    EventDetail detail;
    detail.eventId = eventId;
    if (!readDetail(&detail, now)) {
        if (detail.error.isEmpty())
            detail.error = tr("the database did not answer");
        dropConnection(); // reopen on the next request: the server may have gone away
    }
    emit detailReady(requestId, detail);
}

bool DetailWorker::readPayload(EventPayload *payload, const QStringList &sensitiveKeys)
{
    const QSqlDatabase db = database(&payload->error);
    if (!db.isValid())
        return false;
    // Only this one event's payload is read, and only on request: list queries never read it.
    ReadOnlyTransaction transaction(db);
    QSqlQuery *query = transaction.prepare(QStringLiteral("SELECT payload FROM ") + source(db)
        + QStringLiteral(" WHERE event_id = :id"));
    if (!query) {
        payload->error = transaction.errorText();
        return false;
    }
    query->bindValue(QStringLiteral(":id"), payload->eventId);
    if (!query->exec()) {
        payload->error = QueryError::text(*query);
        return false;
    }
    payload->found = query->next();
    if (payload->found)
        payload->text = Redaction::redactJson(query->value(0).toString(), sensitiveKeys);
    return true;
}

void DetailWorker::readPayload(
    quint64 requestId, const QString &eventId, const QStringList &sensitiveKeys)
{
    EventPayload payload;
    payload.eventId = eventId;
    if (!readPayload(&payload, sensitiveKeys)) {
        if (payload.error.isEmpty())
            payload.error = tr("the database did not answer");
        dropConnection();
        emit payloadReady(requestId, payload);
        return;
    }
    const QJsonDocument json = QJsonDocument::fromJson(payload.text.toUtf8());
    if (!json.isNull())
        payload.text = QString::fromUtf8(json.toJson(QJsonDocument::Indented));
    emit payloadReady(requestId, payload);
}

std::optional<SqlRows> DetailWorker::readReplayLog(QString *error)
{
    const QSqlDatabase db = database(error);
    if (!db.isValid())
        return std::nullopt;
    if (native())
        return ReplayLogModel::readRows(db, {}, error, ReplayLogModel::AuditRows);
    // Another library's table: the actions through its profile, in the audit store if any.
    const ProfileAudit audit = NotesAccess::audit(db, *m_profile);
    if (!audit.unavailable(m_profile->name(), QStringLiteral("replay")).isEmpty())
        return SqlRows {};
    return ReplayLogModel::readProfileRows(
        audit.store(), audit.outbox(), error, ReplayLogModel::AuditRows);
}

void DetailWorker::readReplayLog(quint64 requestId)
{
    QString error;
    const std::optional<SqlRows> rows = readReplayLog(&error);
    if (!rows) {
        dropConnection(); // no QSqlDatabase handle is alive here any more
        emit replayLogReady(
            requestId, {}, error.isEmpty() ? tr("the database did not answer") : error);
        return;
    }
    emit replayLogReady(requestId, *rows, {});
}

void DetailWorker::readLocation(
    quint64 requestId, const QString &eventId, const EventFilter &filter, qint64 now)
{
    Q_ASSERT(QThread::currentThread() == thread());
    EventLocation location;
    location.eventId = eventId;
    {
        const QSqlDatabase db = database(&location.error);
        if (db.isValid()) {
            location
                = EventLookup::locate(db, m_profile ? &*m_profile : nullptr, eventId, filter, now);
        }
    }
    if (!location.error.isEmpty())
        dropConnection(); // reopen on the next request: the server may have gone away
    emit locationReady(requestId, location);
}
