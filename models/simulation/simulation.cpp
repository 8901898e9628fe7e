#include "simulation.h"

#include "enginestatements.h"
#include "payloadeditor.h"
#include "sqldialect.h"

#include <QJsonObject>
#include <QSqlError>
#include <QSqlQuery>

Simulation::Simulation(const QSqlDatabase &db, QObject *parent)
    : QObject(parent)
    , m_db(db)
    , m_store(db)
    , m_transport(db)
{ }

void Simulation::emitEvent(const TraceEvent &event)
{
    if (m_keepsTrace)
        m_trace << event;
    emit traced(event);
}

void Simulation::noteError(const QString &what, const QString &detail)
{
    if (m_error.isEmpty())
        m_error = what + QStringLiteral(": ") + detail;
}

bool Simulation::setStock(const QString &sku, int quantity)
{
    QSqlQuery query(m_db);
    query.prepare(
        SqlDialect::of(m_db).statements().upsertSql({.table = QStringLiteral("consumer_stock"),
                                                        .columns = QStringLiteral("sku, quantity"),
                                                        .values = QStringLiteral(":sku, :quantity"),
                                                        .key = QStringLiteral("sku")},
            {QStringLiteral("quantity")}));
    query.bindValue(QStringLiteral(":sku"), sku);
    query.bindValue(QStringLiteral(":quantity"), quantity);
    if (query.exec())
        return true;
    noteError(QStringLiteral("seeding stock"), query.lastError().text());
    return false;
}

bool Simulation::addStockReservation(const QString &eventId, const QString &sku, int quantity)
{
    NewEvent event;
    event.eventId = eventId;
    event.aggregateType = QStringLiteral("Order");
    event.aggregateId = QStringLiteral("ORDER-") + eventId.section(QLatin1Char('-'), -1);
    event.eventType = QStringLiteral("StockReserved");
    event.payload = QStringLiteral("{\"sku\":\"%1\",\"quantity\":%2}").arg(sku).arg(quantity);
    event.createdAt = m_now;
    if (m_store.insertEvent(event))
        return true;
    noteError(QStringLiteral("inserting ") + eventId, m_store.lastError());
    return false;
}

bool Simulation::claim(const QString &worker, const QString &eventId)
{
    const ClaimResult result = m_store.claim(eventId, worker, m_now);
    TraceEvent event(QStringLiteral("claim"), m_now);
    event.set(QStringLiteral("event_id"), eventId).set(QStringLiteral("worker"), worker);
    event.set(QStringLiteral("ok"), result.ok);
    if (result.ok) {
        event.set(QStringLiteral("attempt"), result.claim.attemptNo);
        event.set(QStringLiteral("lease_until"), result.claim.leaseUntil);
        if (result.claim.tookOverExpiredLease)
            event.set(QStringLiteral("took_over_expired_lease"), true);
        m_workers[worker] = WorkerState {result.claim, {}, true, false};
    } else {
        event.set(QStringLiteral("reason"), result.reason);
        if (result.reason == Refusal::DatabaseError)
            noteError(QStringLiteral("claiming ") + eventId, m_store.lastError());
    }
    emitEvent(event);
    return result.ok;
}

void Simulation::deliver(const QString &worker)
{
    WorkerState &state = m_workers[worker];
    if (!state.holdsClaim)
        return;
    state.delivery = m_transport.deliver(state.claim, m_now);
    state.delivered = true;
    TraceEvent event(QStringLiteral("deliver"), m_now);
    event.set(QStringLiteral("event_id"), state.claim.eventId)
        .set(QStringLiteral("worker"), worker);
    event.set(QStringLiteral("attempt"), state.claim.attemptNo);
    event.set(QStringLiteral("transport_call"), m_transport.calls());
    event.set(QStringLiteral("result"), state.delivery.outcomeName());
    if (m_edited.contains(state.claim.eventId))
        event.set(QStringLiteral("edited"), true);
    if (!state.delivery.error.isEmpty())
        event.set(QStringLiteral("error"), state.delivery.error);
    emitEvent(event);
}

void Simulation::settle(const QString &worker)
{
    WorkerState &state = m_workers[worker];
    if (!state.holdsClaim || !state.delivered)
        return;
    state.holdsClaim = false;
    const Claim &claim = state.claim;
    if (state.delivery.succeeded()) {
        const AckResult result = m_store.ack(claim, m_now, state.delivery.consumerResult());
        TraceEvent event(QStringLiteral("ack"), m_now);
        event.set(QStringLiteral("event_id"), claim.eventId).set(QStringLiteral("worker"), worker);
        event.set(QStringLiteral("ok"), result.ok);
        if (!result.ok)
            event.set(QStringLiteral("reason"), result.reason);
        if (result.reason == Refusal::DatabaseError)
            noteError(QStringLiteral("acknowledging ") + claim.eventId, m_store.lastError());
        emitEvent(event);
        return;
    }

    const FailResult result
        = m_store.fail(claim, m_now, state.delivery.category(), state.delivery.error);
    TraceEvent event(QStringLiteral("fail"), m_now);
    event.set(QStringLiteral("event_id"), claim.eventId).set(QStringLiteral("worker"), worker);
    event.set(QStringLiteral("ok"), result.ok);
    event.set(QStringLiteral("category"), errorCategoryName(state.delivery.category()));
    event.set(QStringLiteral("error"), state.delivery.error);
    if (!result.ok) {
        event.set(QStringLiteral("reason"), result.reason);
        if (result.reason == Refusal::DatabaseError)
            noteError(QStringLiteral("recording failure of ") + claim.eventId, m_store.lastError());
        emitEvent(event);
        return;
    }
    event.set(QStringLiteral("failures"), result.failures)
        .set(QStringLiteral("status"), result.status);
    event.set(QStringLiteral("next_attempt_at"),
        result.status == QLatin1String("DEAD") ? QJsonValue(QJsonValue::Null)
                                               : QJsonValue(result.nextAttemptAt));
    emitEvent(event);
    if (result.status == QLatin1String("DEAD")) {
        TraceEvent park(QStringLiteral("park"), m_now);
        park.set(QStringLiteral("event_id"), claim.eventId)
            .set(QStringLiteral("failures"), result.failures);
        park.set(QStringLiteral("category"), errorCategoryName(state.delivery.category()));
        park.set(QStringLiteral("why"),
            state.delivery.category() == ErrorCategory::Permanent
                ? QStringLiteral("permanent rejection")
                : QStringLiteral("retry budget spent"));
        emitEvent(park);
    }
}

void Simulation::attempt(const QString &worker, const QString &eventId)
{
    if (!claim(worker, eventId))
        return;
    deliver(worker);
    settle(worker);
}

bool Simulation::editAndReplay(const QString &operatorName, const QString &eventId,
    const QString &newPayload, const QString &reason)
{
    PayloadEditRequest request;
    request.eventId = eventId;
    request.newPayload = newPayload;
    request.operatorName = operatorName;
    request.reason = reason;
    request.now = m_now;
    const PayloadEditResult result = PayloadEditor(m_db).edit(request);
    TraceEvent event(QStringLiteral("edit"), m_now);
    event.set(QStringLiteral("event_id"), eventId).set(QStringLiteral("operator"), operatorName);
    event.set(QStringLiteral("ok"), result.ok());
    if (result.ok()) {
        event.set(QStringLiteral("revision"), result.revisionNo);
        event.set(QStringLiteral("diff"), result.diff.join(QStringLiteral("; ")));
        m_edited.insert(eventId);
    } else {
        event.set(QStringLiteral("error"), result.error);
        if (result.outcome == PayloadEditResult::Outcome::Failed)
            noteError(QStringLiteral("editing ") + eventId, result.error);
    }
    emitEvent(event);
    return result.ok();
}

qint64 Simulation::nextAttemptAt(const QString &eventId) const
{
    QSqlQuery query(m_db);
    query.prepare(
        QStringLiteral("SELECT next_attempt_at FROM delivery_outbox WHERE event_id = :id"));
    query.bindValue(QStringLiteral(":id"), eventId);
    return query.exec() && query.next() ? query.value(0).toLongLong() : -1;
}

TraceEvent Simulation::summary() const
{
    QJsonObject statuses {{QStringLiteral("PENDING"), 0}, {QStringLiteral("DELIVERED"), 0},
        {QStringLiteral("DEAD"), 0}};
    QSqlQuery query(m_db);
    query.exec(QStringLiteral("SELECT status, COUNT(*) FROM delivery_outbox GROUP BY status"));
    while (query.next())
        statuses.insert(query.value(0).toString(), query.value(1).toInt());
    QJsonObject stock;
    query.exec(QStringLiteral("SELECT sku, quantity FROM consumer_stock ORDER BY sku"));
    while (query.next())
        stock.insert(query.value(0).toString(), query.value(1).toInt());
    query.exec(QStringLiteral("SELECT COUNT(*) FROM consumer_ledger"));
    const int ledger = query.next() ? query.value(0).toInt() : 0;

    TraceEvent event(QStringLiteral("summary"), -1);
    event.set(QStringLiteral("statuses"), statuses).set(QStringLiteral("stock"), stock);
    event.set(QStringLiteral("ledger"), ledger)
        .set(QStringLiteral("transport_calls"), m_transport.calls());
    return event;
}
