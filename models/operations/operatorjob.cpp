#include "operatorjob.h"

#include "enginestatements.h"
#include "queryerror.h"
#include "sqldialect.h"
#include "sqltransaction.h"

#include <QElapsedTimer>
#include <QSet>
#include <QSqlQuery>

OperatorJob::OperatorJob(const QSqlDatabase &db)
    : m_db(db)
    , m_dialect(&SqlDialect::of(db))
    , m_statements(db)
{ }

QStringList OperatorJob::distinct(const QStringList &ids)
{
    QStringList out;
    QSet<QString> seen;
    for (const QString &id : ids) {
        if (!seen.contains(id)) {
            seen.insert(id);
            out << id;
        }
    }
    return out;
}

OperatorOutcome OperatorJob::run(const OperatorRequest &request, const OperatorWords &words,
    const std::function<QString()> &refusal, const Step &step)
{
    OperatorOutcome outcome;
    if (request.operatorName.trimmed().isEmpty()) {
        outcome.error = QStringLiteral("an operator name is required: ") + words.whoRecorded();
        return outcome;
    }
    if (request.reason.trimmed().isEmpty()) {
        outcome.error = QStringLiteral("a reason is required: ") + words.whyRecorded();
        return outcome;
    }
    outcome.error = refusal();
    if (!outcome.error.isEmpty())
        return outcome;
    const QStringList ids = distinct(request.eventIds);
    outcome.total = ids.size();
    QElapsedTimer sinceProgress;
    for (qsizetype i = 0; i < ids.size(); ++i) {
        if (m_stop && *m_stop) {
            outcome.cancelled = true; // every event before this one is committed or skipped
            return outcome;
        }
        QString error;
        const Outcome ended = runStep(step, ids.at(i), i, ids.size(), &error);
        const QString unsettled = m_settled ? m_settled(ids.at(i), ended) : QString();
        switch (ended) {
        case Outcome::Done:
            outcome.done << ids.at(i);
            break;
        case Outcome::Skipped:
            outcome.skipped << ids.at(i);
            break;
        case Outcome::Failed:
            outcome.error = QStringLiteral("%1 %2: %3").arg(words.doing, ids.at(i), error);
            return outcome;
        case Outcome::Unknown: // the connection is gone: the next event would fail anyway
            outcome.unknown << ids.at(i);
            outcome.error = QStringLiteral("%1 %2: its COMMIT got no answer: %3")
                                .arg(words.doing, ids.at(i), error);
            return outcome;
        }
        if (!unsettled.isEmpty()) {
            outcome.error = QStringLiteral("%1 %2: %3").arg(words.doing, ids.at(i), unsettled);
            return outcome;
        }
        const bool last = i + 1 == ids.size();
        if (m_progress
            && (last || !sinceProgress.isValid()
                || sinceProgress.elapsed() >= ProgressIntervalMs)) {
            m_progress(i + 1, ids.size());
            sinceProgress.start();
        }
    }
    return outcome;
}

// One event, one transaction: committed when the step did its work, rolled back otherwise.
OperatorJob::Outcome OperatorJob::runStep(
    const Step &step, const QString &eventId, qsizetype index, qsizetype count, QString *error)
{
    SqlTransaction transaction(m_db);
    if (!transaction.isActive()) {
        *error = transaction.errorText();
        return Outcome::Failed;
    }
    const Outcome outcome = step(eventId, index, count, error);
    if (outcome == Outcome::Done && !transaction.commit()) {
        *error = transaction.errorText();
        return transaction.isOutcomeUnknown() ? Outcome::Unknown : Outcome::Failed;
    }
    return outcome;
}

// The row locked while its failures are read, only if it is still in `from`. failures is
// recorded as it was; text in it (SQLite keeps whatever is written) is not a count to record
// or to keep, so the row is left alone and named.
bool OperatorJob::lockFailures(
    const QString &eventId, const QString &from, qint64 *failures, bool *found, QString *error)
{
    QSqlQuery &select
        = prepared(m_dialect->statements().selectSql({.columns = QStringLiteral("failures"),
            .table = QStringLiteral("delivery_outbox"),
            .where = QStringLiteral("event_id = :id AND status = :from"),
            .lock = EngineStatements::RowLock::Update}));
    select.bindValue(QStringLiteral(":id"), eventId);
    select.bindValue(QStringLiteral(":from"), from);
    if (!select.exec()) {
        *error = QueryError::text(select);
        return false;
    }
    *found = select.next();
    if (!*found) {
        select.finish();
        return true; // done by someone else first, not in `from`, or not found
    }
    bool whole = false;
    const QVariant value = select.value(0);
    *failures = value.toLongLong(&whole);
    select.finish();
    if (!whole || value.typeId() == QMetaType::QString) {
        *error = QStringLiteral("column failures holds '%1', not a whole number")
                     .arg(value.toString().left(40));
        return false;
    }
    return true;
}

void OperatorJob::bindAll(QSqlQuery &query, const QVariantMap &values)
{
    for (auto it = values.cbegin(); it != values.cend(); ++it)
        query.bindValue(it.key(), it.value());
}

OperatorJob::Outcome OperatorJob::change(const QString &eventId, const OperatorRequest &request,
    const NativeChange &change, QString *error)
{
    qint64 failuresBefore = 0;
    bool found = false;
    if (!lockFailures(eventId, change.from, &failuresBefore, &found, error))
        return Outcome::Failed;
    if (!found)
        return Outcome::Skipped;
    QSqlQuery &update = prepared(change.update);
    update.bindValue(QStringLiteral(":id"), eventId);
    update.bindValue(QStringLiteral(":from"), change.from);
    bindAll(update, change.updateValues);
    if (!update.exec()) {
        *error = QueryError::text(update);
        return Outcome::Failed;
    }
    if (update.numRowsAffected() != 1)
        return Outcome::Skipped;
    QSqlQuery &log = prepared(change.audit);
    log.bindValue(QStringLiteral(":id"), eventId);
    log.bindValue(QStringLiteral(":at"), request.now);
    log.bindValue(QStringLiteral(":operator"), request.operatorName.trimmed());
    log.bindValue(QStringLiteral(":reason"), request.reason.trimmed());
    log.bindValue(QStringLiteral(":before"), failuresBefore);
    bindAll(log, change.auditValues);
    if (!log.exec()) {
        *error = QueryError::text(log);
        return Outcome::Failed;
    }
    return Outcome::Done;
}
