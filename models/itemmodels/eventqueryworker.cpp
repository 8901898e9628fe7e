#include "eventqueryworker.h"

#include "errorsignature.h"
#include "eventpagequery.h"
#include "notesaccess.h"
#include "readonlytransaction.h"
#include "sqldialect.h"

#include <QElapsedTimer>
#include <QSqlQuery>
#include <QThread>

EventQueryWorker::EventQueryWorker(const DatabaseUrl &url, const OpenOptions &options,
    std::shared_ptr<EventQueryState> state, QObject *parent)
    : QObject(parent)
    , m_statementTimeoutMs(options.statementTimeoutMs)
    , m_state(std::move(state))
    , m_connection(url, options)
{ }

// Runs on the worker thread, where the connection was opened.
EventQueryWorker::~EventQueryWorker() = default;

DbConnection *EventQueryWorker::ensureConnection(QString *error)
{
    const bool fresh = !m_connection.isOpen();
    DbConnection *connection = m_connection.get(error);
    if (fresh && connection)
        inspectConnection(connection->database(), connection->dialect());
    return connection;
}

// The backend to cancel; the collation is asked again on the new connection.
void EventQueryWorker::inspectConnection(const QSqlDatabase &db, const SqlDialect &dialect)
{
    QSqlQuery query(db);
    if (dialect.can().serverSideCancel && query.exec(dialect.backendIdSql()) && query.next())
        m_state->backendPid = query.value(0).toInt();
    m_probedSource.reset();
}

// Whether the ID column of `source` does not sort by code point (C, POSIX, C.UTF-8,
// utf8mb4_bin): only when it does is an ID prefix a plain range of the primary key's own
// order. The column's own collation decides (a profile's MySQL table may be utf8mb4_*_ci,
// case- and accent-insensitive). Asked once per source and connection; when the probe fails,
// prefixes compare by code point anyway: correct, if slower.
bool EventQueryWorker::idsInCCollation(
    const QSqlDatabase &db, const SqlDialect &dialect, const QString &source)
{
    if (!dialect.can().localeCollations)
        return false;
    if (m_probedSource == source)
        return m_idsInCCollation;
    ReadOnlyTransaction transaction(db); // the source may be a profile's SQL
    QSqlQuery *query
        = transaction.prepare(dialect.columnCollationProbeSql(QStringLiteral("event_id"), source));
    const bool byteOrder = query && query->exec() && query->next() && query->value(0).toBool();
    m_probedSource = source;
    m_idsInCCollation = !byteOrder;
    return m_idsInCCollation;
}

void EventQueryWorker::run(const EventPageRequest &request)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_state->isSuperseded(request.id)) {
        ++m_state->skipped;
        return;
    }
    // A connection kept from an earlier read may have died since (a server restart): when
    // the read fails on it, one more try on a fresh connection, so the table is current again
    // with the first refresh after the server returns rather than the one after.
    const bool kept = m_connection.isOpen();
    EventPageAnswer answer;
    QElapsedTimer timer;
    timer.start();
    bool ok = runOnce(request, &answer);
    const bool dropped = kept && !m_connection.isOpen();
    if (!ok && dropped && answer.outcome == EventPageAnswer::Outcome::Failed
        && !m_state->isSuperseded(request.id))
        ok = runOnce(request, &answer);
    answer.queryMs = timer.elapsed();
    if (ok || answer.outcome != EventPageAnswer::Outcome::Ok)
        emit answered(answer);
}

bool EventQueryWorker::runOnce(const EventPageRequest &request, EventPageAnswer *answer)
{
    *answer = EventPageAnswer();
    answer->id = request.id;
    answer->kind = request.kind;
    QString error;
    DbConnection *connection = ensureConnection(&error);
    if (!connection) {
        answer->outcome = EventPageAnswer::Outcome::Failed;
        answer->error = error;
        return false;
    }
    EventPageRequest effective = request;
    effective.filter.idsInCCollation
        = idsInCCollation(connection->database(), connection->dialect(), request.source);
    answer->idsInCCollation = effective.filter.idsInCCollation;
    EventPageQuery query(connection->database());
    m_state->running = request.id;
    const bool ok = readPage(query, effective, answer);
    if (ok && request.count)
        readCount(query, effective, answer);
    if (ok)
        readNotes(connection->database(), request, answer);
    m_state->running = 0;
    return ok;
}

// False when the page has no answer: failed (then `answer` says why) or cancelled because
// superseded (then nothing is answered).
bool EventQueryWorker::readPage(
    EventPageQuery &query, const EventPageRequest &request, EventPageAnswer *answer)
{
    for (int attempt = 0; attempt < 2; ++attempt) {
        QElapsedTimer timer;
        timer.start();
        ++m_state->statements;
        if (const auto rows = query.page(request)) {
            answer->rows = *rows;
            return true;
        }
        if (!settle(query, request.id, timer.elapsed(), answer))
            return false;
    }
    answer->outcome = EventPageAnswer::Outcome::Failed; // cancelled twice: say so
    answer->error = query.errorText();
    return false;
}

void EventQueryWorker::readNotes(
    const QSqlDatabase &db, const EventPageRequest &request, EventPageAnswer *answer)
{
    // Another library's table: its notes live in the notes database (--notes-db) or nowhere.
    const OutboxProfile *profile = request.profile ? &*request.profile : nullptr;
    if (profile && !profile->isNative() && !NotesAccess::notesDatabase())
        return;
    QStringList ids;
    QSet<QString> signatures;
    for (const EventRow &row : std::as_const(answer->rows)) {
        if (row.status != QLatin1String("DEAD"))
            continue;
        ids << row.eventId;
        if (!row.lastError.isEmpty())
            signatures.insert(ErrorSignature::of(row.lastError));
    }
    if (ids.isEmpty() || m_state->isSuperseded(request.id))
        return;
    OperatorNotes notes = NotesAccess::open(db, profile);
    if (!m_notesAvailable) {
        // One extra statement per page: the schema's version until it has operator_note
        // (once per connection, on the first page with DEAD rows), then the notes themselves.
        ++m_state->statements;
        m_notesAvailable = notes.unavailable().isEmpty();
        if (!m_notesAvailable)
            return;
    }
    ++m_state->statements;
    QString error;
    const auto found
        = notes.listFor(ids, QStringList(signatures.cbegin(), signatures.cend()), &error);
    if (!found)
        return; // the rows stand without their notes
    QHash<QString, OperatorNote> newestOnEvent; // oldest first: the last one stays
    QHash<QString, OperatorNote> newestOnGroup;
    QHash<QString, QString> eventMarker, groupMarker; // the strongest marker of each
    for (const OperatorNote &note : *found) {
        const bool onEvent = !note.eventId.isEmpty();
        const QString key = onEvent ? note.eventId : note.errorGroup;
        (onEvent ? newestOnEvent : newestOnGroup).insert(key, note);
        QString &marker = (onEvent ? eventMarker : groupMarker)[key];
        if (note.marker == OperatorNotes::OnHold || marker.isEmpty())
            marker = note.marker;
    }
    for (EventRow &row : answer->rows) {
        if (row.status != QLatin1String("DEAD"))
            continue;
        const QString signature
            = row.lastError.isEmpty() ? QString() : ErrorSignature::of(row.lastError);
        const auto own = newestOnEvent.constFind(row.eventId);
        const auto group
            = signature.isEmpty() ? newestOnGroup.constEnd() : newestOnGroup.constFind(signature);
        const bool hasOwn = own != newestOnEvent.constEnd();
        const bool hasGroup = group != newestOnGroup.constEnd();
        if (!hasOwn && !hasGroup)
            continue;
        const OperatorNote &newest = !hasGroup   ? *own
            : !hasOwn                            ? *group
            : own->createdAt >= group->createdAt ? *own
                                                 : *group;
        const QString onEvent = eventMarker.value(row.eventId);
        const QString onGroup = hasGroup ? groupMarker.value(signature) : QString();
        if (onEvent == OperatorNotes::OnHold || onGroup == OperatorNotes::OnHold)
            row.noteMarker = OperatorNotes::OnHold;
        else if (!onEvent.isEmpty() || !onGroup.isEmpty())
            row.noteMarker = onEvent.isEmpty() ? onGroup : onEvent;
        else
            row.noteMarker = QStringLiteral("note");
        row.note = newest.text;
        row.noteBy = newest.operatorName;
    }
}

void EventQueryWorker::readCount(
    EventPageQuery &query, const EventPageRequest &request, EventPageAnswer *answer)
{
    // A short first page is its own count.
    if (request.anchor == EventPageRequest::Anchor::None && answer->rows.size() < request.limit) {
        answer->count = answer->rows.size();
        return;
    }
    if (m_state->isSuperseded(request.id))
        return;
    QElapsedTimer timer;
    timer.start();
    ++m_state->statements;
    if (const auto count = query.count(request)) {
        answer->count = *count;
        return;
    }
    // The rows stand without a count; a broken connection is reopened next time.
    EventPageAnswer scratch;
    settle(query, request.id, timer.elapsed(), &scratch);
}

// Classifies a failed statement. True only when it should be tried again: a cancel that hit
// the newest request long before its timeout was meant for the statement before it.
bool EventQueryWorker::settle(
    const EventPageQuery &query, quint64 id, qint64 elapsedMs, EventPageAnswer *answer)
{
    if (query.wasCancelled()) {
        if (m_state->isSuperseded(id)) {
            ++m_state->cancelled;
            return false;
        }
        const int timeout = m_statementTimeoutMs;
        if (timeout <= 0 || elapsedMs < timeout * 9 / 10)
            return true;
        answer->outcome = EventPageAnswer::Outcome::TimedOut;
        answer->error = query.errorText();
        return false;
    }
    m_connection.drop(); // the server may have gone away: reopen at the next request
    m_state->backendPid = 0;
    if (!m_state->isSuperseded(id)) {
        answer->outcome = EventPageAnswer::Outcome::Failed;
        answer->error = query.errorText();
    }
    return false;
}
