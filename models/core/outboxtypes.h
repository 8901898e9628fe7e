// Plain values passed between the outbox store, the transport, the consumer and the relay.
#pragma once

#include <QString>

struct NewEvent
{
    QString eventId;
    QString aggregateType;
    QString aggregateId;
    QString eventType;
    QString payload; // JSON
    qint64 createdAt = 0;
};

// A claimed event: what a worker needs to deliver it and to fence its acknowledgement.
struct Claim
{
    QString eventId;
    QString token;
    QString worker;
    QString payload;
    int attemptNo = 0;
    qint64 claimedAt = 0;
    qint64 leaseUntil = 0;
    bool tookOverExpiredLease = false;
};

enum class ErrorCategory { Transient, Permanent };

inline QString errorCategoryName(ErrorCategory category)
{
    return category == ErrorCategory::Permanent ? QStringLiteral("PERMANENT")
                                                : QStringLiteral("TRANSIENT");
}

// Why a claim, ack or fail was refused. Stable strings: they appear in the JSON trace.
namespace Refusal {
inline const QString NotFound = QStringLiteral("NOT_FOUND");
inline const QString NotDue = QStringLiteral("NOT_DUE");
inline const QString InFlight = QStringLiteral("IN_FLIGHT");
inline const QString Delivered = QStringLiteral("DELIVERED");
inline const QString Dead = QStringLiteral("DEAD");
inline const QString Fenced = QStringLiteral("FENCED");
inline const QString DatabaseError = QStringLiteral("DATABASE_ERROR");
} // namespace Refusal

struct ClaimResult
{
    bool ok = false;
    QString reason; // a Refusal when !ok
    Claim claim;
};

struct AckResult
{
    bool ok = false;
    QString reason;
};

struct FailResult
{
    bool ok = false;
    QString reason;
    int failures = 0;
    QString status; // PENDING or DEAD
    qint64 nextAttemptAt = 0;
    qint64 delay = 0;
};
