#include "csvexport.h"

#include "enginestatements.h"
#include "queryerror.h"
#include "readonlytransaction.h"
#include "redaction.h"
#include "sqldialect.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QVariantMap>
#include <functional>

namespace {

// Rows read per statement: Qt's MySQL driver holds a statement's whole result in memory, so
// an export reads the rows a page at a time (keyset: after the page's last key), on every
// engine alike.
constexpr int PageRows = 1000;

bool writeRow(QIODevice *out, const QStringList &fields, QString *error)
{
    QStringList quoted;
    quoted.reserve(fields.size());
    for (const QString &text : fields)
        quoted << CsvExport::field(text);
    const QByteArray line = (quoted.join(QLatin1Char(',')) + QStringLiteral("\r\n")).toUtf8();
    if (out->write(line) == line.size())
        return true;
    *error = QStringLiteral("cannot write the export: %1").arg(out->errorString());
    return false;
}

bool fail(const QSqlQuery &query, QString *error)
{
    *error = QueryError::text(query);
    return false;
}

// A NULL column is an empty field.
QString text(const QSqlQuery &query, int column)
{
    const QVariant value = query.value(column);
    return value.isNull() ? QString() : value.toString();
}

// Every row of `sql` (keyset pages on its first column: :after and :page_rows bound), each
// written as `fields` makes it; counts into *written.
// `select` (its ORDER BY last) a page at a time: at most :page_rows rows.
QString paged(const QSqlDatabase &db, const QString &select)
{
    return SqlDialect::of(db).statements().limitedSql(select, QStringLiteral(":page_rows"));
}

// `sql`, a SELECT of rows after :after in the order of its first column, paged (paged()).
bool writePages(const QSqlDatabase &db, const QString &sql,
    const std::function<QStringList(const QSqlQuery &)> &fields, QIODevice *out, QString *error,
    qint64 *written, const QVariantMap &values = {})
{
    ReadOnlyTransaction transaction(db);
    QSqlQuery *query = transaction.prepare(paged(db, sql));
    if (!query) {
        *error = transaction.errorText();
        return false;
    }
    for (auto it = values.cbegin(); it != values.cend(); ++it)
        query->bindValue(it.key(), it.value());
    qint64 after = -1;
    for (int pageRows = PageRows; pageRows == PageRows;) {
        query->bindValue(QStringLiteral(":after"), after);
        query->bindValue(QStringLiteral(":page_rows"), PageRows);
        if (!query->exec())
            return fail(*query, error);
        pageRows = 0;
        while (query->next()) {
            if (!writeRow(out, fields(*query), error))
                return false;
            after = query->value(0).toLongLong();
            ++pageRows;
            ++*written;
        }
        if (query->lastError().isValid())
            return fail(*query, error);
    }
    return true;
}

} // namespace

namespace CsvExport {

QString cancelledError()
{
    return QStringLiteral("the export was cancelled");
}

QString neutralised(const QString &text)
{
    static const QString formulaStarts = QStringLiteral("=+-@\t\r");
    if (!text.isEmpty() && formulaStarts.contains(text.front()))
        return QLatin1Char('\'') + text;
    return text;
}

QString field(const QString &text)
{
    static const QString special = QStringLiteral(",\"\r\n");
    QString escaped = neutralised(text);
    bool needsQuotes = false;
    for (const QChar c : escaped)
        needsQuotes = needsQuotes || special.contains(c);
    if (!needsQuotes)
        return escaped;
    escaped.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + escaped + QLatin1Char('"');
}

bool exportEvents(const QSqlDatabase &db, const EventFilter &filter, qint64 now,
    const QStringList &sensitiveKeys, QIODevice *out, QString *error, qint64 *rows,
    const QString &source, const Progress &progress)
{
    QString scratch;
    if (!error)
        error = &scratch;
    // The source may be a profile's SQL: read it where nothing can be written.
    ReadOnlyTransaction transaction(db);
    const QString select
        = QStringLiteral("SELECT event_id, event_type, aggregate_type, aggregate_id, status,"
                         " failures, created_at, next_attempt_at, last_error_category,"
                         " last_error, payload FROM ")
        + source + QStringLiteral(" WHERE ") + filter.whereClause(SqlDialect::of(db));
    const QString order = QStringLiteral(" ORDER BY event_id");
    QSqlQuery *first = transaction.prepare(paged(db, select + order));
    QSqlQuery *next = first
        ? transaction.prepare(paged(db, select + QStringLiteral(" AND event_id > :after") + order))
        : nullptr;
    if (!first || !next) {
        *error = transaction.errorText();
        return false;
    }
    if (!writeRow(out,
            {QStringLiteral("event_id"), QStringLiteral("event_type"),
                QStringLiteral("aggregate_type"), QStringLiteral("aggregate_id"),
                QStringLiteral("status"), QStringLiteral("failures"), QStringLiteral("created_at"),
                QStringLiteral("next_attempt_at"), QStringLiteral("last_error_category"),
                QStringLiteral("last_error"), QStringLiteral("payload_redacted")},
            error))
        return false;
    qint64 written = 0;
    const Redaction::Redactor redactor(sensitiveKeys);
    QString after;
    for (QSqlQuery *page = first;; page = next) {
        filter.bindValues(*page, now, SqlDialect::of(db));
        page->bindValue(QStringLiteral(":page_rows"), PageRows);
        if (page == next)
            page->bindValue(QStringLiteral(":after"), after);
        if (!page->exec())
            return fail(*page, error);
        int pageRows = 0;
        while (page->next()) {
            QStringList fields;
            for (int column = 0; column < 10; ++column)
                fields << text(*page, column);
            fields << redactor.redactJson(page->value(10).toString());
            if (!writeRow(out, fields, error))
                return false;
            after = fields.constFirst();
            ++pageRows;
            ++written;
            if (progress && !progress(written)) {
                *error = cancelledError();
                return false;
            }
        }
        if (page->lastError().isValid())
            return fail(*page, error); // the stream broke off part way
        if (pageRows < PageRows)
            break;
    }
    if (rows)
        *rows = written;
    return true;
}

bool exportReplayLog(const QSqlDatabase &db, QIODevice *out, QString *error, const QString &eventId,
    qint64 *rows, const Progress &progress)
{
    QString scratch;
    if (!error)
        error = &scratch;
    QSqlQuery query(db);
    query.setForwardOnly(true);
    query.prepare(paged(db,
        QStringLiteral("SELECT replay_id, event_id, replayed_at, operator, reason,"
                       " reset_failures, failures_before FROM replay_log"
                       " WHERE replay_id > :after")
            + (eventId.isEmpty() ? QString() : QStringLiteral(" AND event_id = :id"))
            + QStringLiteral(" ORDER BY replay_id")));
    if (!writeRow(out,
            {QStringLiteral("replay_id"), QStringLiteral("event_id"), QStringLiteral("replayed_at"),
                QStringLiteral("operator"), QStringLiteral("reason"),
                QStringLiteral("reset_failures"), QStringLiteral("failures_before")},
            error))
        return false;
    qint64 written = 0;
    qint64 after = -1;
    for (int pageRows = PageRows; pageRows == PageRows;) {
        if (!eventId.isEmpty())
            query.bindValue(QStringLiteral(":id"), eventId);
        query.bindValue(QStringLiteral(":after"), after);
        query.bindValue(QStringLiteral(":page_rows"), PageRows);
        if (!query.exec())
            return fail(query, error);
        pageRows = 0;
        while (query.next()) {
            const QStringList fields
                = {text(query, 0), text(query, 1), text(query, 2), text(query, 3), text(query, 4),
                    query.value(5).toBool() ? QStringLiteral("true") : QStringLiteral("false"),
                    text(query, 6)};
            if (!writeRow(out, fields, error))
                return false;
            after = query.value(0).toLongLong();
            ++pageRows;
            ++written;
            if (progress && !progress(written)) {
                *error = cancelledError();
                return false;
            }
        }
        if (query.lastError().isValid())
            return fail(query, error);
    }
    if (rows)
        *rows = written;
    return true;
}

bool exportNotes(const QSqlDatabase &db, QIODevice *out, QString *error, qint64 *rows)
{
    QString scratch;
    if (!error)
        error = &scratch;
    if (!writeRow(out,
            {QStringLiteral("note_id"), QStringLiteral("event_id"), QStringLiteral("error_group"),
                QStringLiteral("operator"), QStringLiteral("created_at"), QStringLiteral("text"),
                QStringLiteral("marker"), QStringLiteral("cleared_at"),
                QStringLiteral("cleared_by")},
            error))
        return false;
    qint64 written = 0;
    const bool ok = writePages(
        db,
        QStringLiteral("SELECT note_id, event_id, error_group, operator, created_at, text, marker,"
                       " cleared_at, cleared_by FROM operator_note WHERE note_id > :after"
                       " ORDER BY note_id"),
        [](const QSqlQuery &query) {
            QStringList fields;
            for (int column = 0; column < 9; ++column)
                fields << text(query, column);
            return fields;
        },
        out, error, &written);
    if (ok && rows)
        *rows = written;
    return ok;
}

bool exportAudit(const QSqlDatabase &db, const QSqlDatabase &notesDb, bool withNotes,
    bool withRevisions, QIODevice *out, QString *error, qint64 *rows)
{
    QString scratch;
    if (!error)
        error = &scratch;
    // The replay log's seven columns first, as exportReplayLog writes them; then the others.
    const QStringList header = {QStringLiteral("replay_id"), QStringLiteral("event_id"),
        QStringLiteral("replayed_at"), QStringLiteral("operator"), QStringLiteral("reason"),
        QStringLiteral("reset_failures"), QStringLiteral("failures_before"), QStringLiteral("kind"),
        QStringLiteral("at"), QStringLiteral("note_id"), QStringLiteral("error_group"),
        QStringLiteral("text"), QStringLiteral("marker"), QStringLiteral("cleared_at"),
        QStringLiteral("cleared_by"), QStringLiteral("revision_no")};
    if (!writeRow(out, header, error))
        return false;
    qint64 written = 0;
    const auto replay = [](const QSqlQuery &q) {
        return QStringList {text(q, 0), text(q, 1), text(q, 2), text(q, 3), text(q, 4),
            q.value(5).toBool() ? QStringLiteral("true") : QStringLiteral("false"), text(q, 6),
            QStringLiteral("replay"), text(q, 2), {}, {}, {}, {}, {}, {}, {}};
    };
    if (!writePages(db,
            QStringLiteral("SELECT replay_id, event_id, replayed_at, operator, reason,"
                           " reset_failures, failures_before FROM replay_log"
                           " WHERE replay_id > :after ORDER BY replay_id"),
            replay, out, error, &written))
        return false;
    const auto note = [](const QSqlQuery &q) {
        return QStringList {{}, text(q, 1), {}, text(q, 3), {}, {}, {}, QStringLiteral("note"),
            text(q, 4), text(q, 0), text(q, 2), text(q, 5), text(q, 6), text(q, 7), text(q, 8), {}};
    };
    if (withNotes
        && !writePages(notesDb,
            QStringLiteral("SELECT note_id, event_id, error_group, operator, created_at, text,"
                           " marker, cleared_at, cleared_by FROM operator_note"
                           " WHERE note_id > :after ORDER BY note_id"),
            note, out, error, &written))
        return false;
    const auto revision = [](const QSqlQuery &q) {
        return QStringList {{}, text(q, 1), {}, text(q, 3), text(q, 4), {}, {},
            QStringLiteral("revision"), text(q, 5), {}, {}, {}, {}, {}, {}, text(q, 2)};
    };
    if (withRevisions
        && !writePages(db,
            QStringLiteral("SELECT revision_id, event_id, revision_no, operator, reason,"
                           " created_at FROM payload_revision"
                           " WHERE revision_id > :after ORDER BY revision_id"),
            revision, out, error, &written))
        return false;
    if (rows)
        *rows = written;
    return true;
}

bool exportProfileAudit(
    const QSqlDatabase &store, const QString &outbox, QIODevice *out, QString *error, qint64 *rows)
{
    QString scratch;
    if (!error)
        error = &scratch;
    const QStringList header = {QStringLiteral("audit_id"), QStringLiteral("event_id"),
        QStringLiteral("action"), QStringLiteral("acted_at"), QStringLiteral("operator"),
        QStringLiteral("reason"), QStringLiteral("state_before"), QStringLiteral("state_after"),
        QStringLiteral("outcome"), QStringLiteral("settled_at")};
    if (!writeRow(out, header, error))
        return false;
    qint64 written = 0;
    const bool ok = writePages(store,
        QStringLiteral("SELECT audit_id, event_id, action, acted_at, operator, reason,"
                       " state_before, state_after, outcome, settled_at FROM profile_audit"
                       " WHERE outbox = :outbox AND audit_id > :after"
                       " ORDER BY audit_id"),
        [](const QSqlQuery &query) {
            QStringList fields;
            for (int column = 0; column < 10; ++column)
                fields << text(query, column);
            return fields;
        },
        out, error, &written, {{QStringLiteral(":outbox"), outbox}});
    if (ok && rows)
        *rows = written;
    return ok;
}

} // namespace CsvExport
