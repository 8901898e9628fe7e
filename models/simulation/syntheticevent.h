// One row of the synthetic outbox that `outboxctl generate` writes, with its attempt history,
// derived from (seed, n) alone: any chunk can be produced on its own and a seed repeats its
// data. This is the SQLite path; resources/sql/generate-postgresql.sql computes the same mix on
// the server. Keep the two in step.
//
// The mix: 97% DELIVERED; 2% PENDING, 0.5% each due, scheduled, in flight and lease expired;
// 1% DEAD (0.7% after the budget of 3 transient failures, 0.3% rejected permanently). About 1.2
// attempt rows per event, agreeing with the event: `failures` = its RETRY and DEAD attempts, a
// DELIVERED event ends with a DELIVERED attempt, a DEAD one with a DEAD attempt, and a claimed
// PENDING row has one unfinished attempt holding its claim token.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

struct SyntheticAttempt
{
    int attemptNo = 0;
    QString worker;
    QString claimToken;
    qint64 claimedAt = 0;
    std::optional<qint64> finishedAt; // none while in flight
    QString outcome; // empty while in flight
    QString errorCategory;
    QString errorMessage;
    QString consumerResult;
    std::optional<qint64> nextAttemptAt; // what a RETRY scheduled
};

struct SyntheticEvent
{
    enum class Kind {
        Delivered,
        Due,
        Scheduled,
        InFlight,
        LeaseExpired,
        DeadTransient,
        DeadPermanent
    };

    static constexpr qint64 WindowMs = 7 * 86400000LL; // created_at over the last 7 days
    static constexpr qint64 SettleMarginMs = 120000; // settled events' attempts end before now
    static constexpr qint64 LeaseMs = 300000;

    // The JSON payload (about 350 bytes) with PostgreSQL format() slots %1$s..%7$s: order number,
    // customer, SKU, quantity, price, warehouse, street number.
    static QString payloadTemplate();
    static const QStringList &transientErrors();
    static const QStringList &permanentErrors();
    static const QStringList &aggregateTypes(); // one per event type, same index
    static const QStringList &eventTypes();

    // Event n (1..count) of a generated outbox judged at `now`.
    static SyntheticEvent make(quint64 seed, qint64 n, qint64 count, qint64 now);
    // "GEN-0000000042": zero-padded, so that identity order is creation order.
    static QString eventIdOf(qint64 n);
    static QString tokenOf(quint64 seed, qint64 n, int attemptNo);

    Kind kind = Kind::Delivered;
    QString eventId;
    QString aggregateType;
    QString aggregateId;
    QString eventType;
    QString payload;
    QString status;
    int failures = 0;
    qint64 nextAttemptAt = 0;
    QString claimToken; // empty when unclaimed
    std::optional<qint64> leaseUntil;
    qint64 createdAt = 0;
    std::optional<qint64> deliveredAt;
    QString lastErrorCategory; // empty = NULL
    QString lastError;
    QList<SyntheticAttempt> attempts;
};
