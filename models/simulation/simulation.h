// The simulator's world on one database: the outbox store, the fake transport with its
// consumer, named workers holding claims, and a logical clock. Each action writes the real
// tables and emits a TraceEvent, so the trace and the database always tell the same story.
#pragma once

#include "faketransport.h"
#include "outboxstore.h"
#include "traceevent.h"

#include <QHash>
#include <QObject>
#include <QSet>

class Simulation : public QObject
{
    Q_OBJECT
public:
    explicit Simulation(const QSqlDatabase &db, QObject *parent = nullptr);

    OutboxStore &store() { return m_store; }
    FakeTransport &transport() { return m_transport; }

    qint64 now() const { return m_now; }
    void setNow(qint64 now) { m_now = now; }

    bool setStock(const QString &sku, int quantity);
    bool addStockReservation(const QString &eventId, const QString &sku, int quantity);

    // Worker actions at the current time. Each emits one or two trace events.
    bool claim(const QString &worker, const QString &eventId);
    void deliver(const QString &worker);
    void settle(const QString &worker); // ack after a delivery the relay saw succeed, else fail
    void attempt(const QString &worker, const QString &eventId); // claim, deliver, settle
    // An operator edits a DEAD event's payload and replays it (PayloadEditor, the window's and
    // `outboxctl replay --edit`'s path): one "edit" trace event. Later deliveries of the event
    // say they carried the edited payload ("edited": true).
    bool editAndReplay(const QString &operatorName, const QString &eventId,
        const QString &newPayload, const QString &reason);

    qint64 nextAttemptAt(const QString &eventId) const;
    TraceEvent summary() const;
    QList<TraceEvent> trace() const { return m_trace; }
    int told() const { return m_told; } // trace events emitted so far, kept or not
    // A long run (the Policy lab's storm of thousands of events) only listens to traced():
    // keeping its whole trace would cost hundreds of megabytes.
    void setKeepsTrace(bool keep) { m_keepsTrace = keep; }
    bool hasError() const { return !m_error.isEmpty(); }
    QString errorText() const { return m_error; }

signals:
    void traced(const TraceEvent &event);

private:
    struct WorkerState
    {
        Claim claim;
        Delivery delivery;
        bool holdsClaim = false;
        bool delivered = false;
    };

    void emitEvent(const TraceEvent &event);
    void noteError(const QString &what, const QString &detail);

    QSqlDatabase m_db;
    OutboxStore m_store;
    FakeTransport m_transport;
    QHash<QString, WorkerState> m_workers;
    QSet<QString> m_edited; // events whose payload an operator edited
    QList<TraceEvent> m_trace;
    bool m_keepsTrace = true;
    int m_told = 0;
    qint64 m_now = 0;
    QString m_error;
};
