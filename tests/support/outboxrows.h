// Rows written straight into the native schema for the diagnosis tests: an event in any state
// at any time, and an attempt of it, with bound values (test data only).
#pragma once

#include <QSqlDatabase>
#include <QString>
#include <QStringList>
#include <optional>

struct OutboxRow
{
    QString id;
    QString status = QStringLiteral("PENDING");
    qint64 createdAt = 0;
    qint64 nextAttemptAt = 0;
    std::optional<qint64> leaseUntil; // set = claimed
    int failures = 0;
    QString category; // empty = NULL
    QString error; // empty = NULL
    QString type = QStringLiteral("OrderPlaced");
    QString aggregate; // empty = the event ID
    std::optional<qint64> deliveredAt;
};

bool insertRow(const QSqlDatabase &db, const OutboxRow &row);
// An event that failed with `error` (of `category`) and is now `status`, created 30 minutes
// before `now`: DEAD after 3 failures (due 20 minutes ago), PENDING retrying in an hour,
// DELIVERED 10 minutes ago after one failure.
OutboxRow failedRow(const QString &id, const QString &status, const QString &error,
    const QString &category, qint64 now);
// `count` DEAD events (H-0, H-1, ...) created an hour before `now`, each with a
// last_error_category of its own, as another writer of the column could store it: quotes, a
// line feed, an escape, a number. One transaction.
// `dead` DEAD events D-0, D-1, ... (3 failures, PERMANENT, `error`; none = NULL) created
// `deadAgeMs` before now, and when `dueAgeMs` is given one PENDING event P-1 due since then:
// the figures a scraped, exported or alerted outbox shows.
bool insertDeadAndDue(const QSqlDatabase &db, int dead, qint64 deadAgeMs,
    std::optional<qint64> dueAgeMs, const QString &error = {});
bool insertHostileCategories(const QSqlDatabase &db, int count, qint64 now);

struct AttemptRow
{
    QString eventId;
    int attemptNo = 1;
    QString worker = QStringLiteral("relay-1");
    qint64 claimedAt = 0;
    std::optional<qint64> finishedAt;
    QString outcome; // empty = NULL (unfinished)
    QString error; // empty = NULL
};

bool insertAttempt(const QSqlDatabase &db, const AttemptRow &attempt);

// Every row of every native table (delivery_outbox, delivery_attempt, consumer_ledger,
// consumer_stock, replay_log, outbox_meta) as one line of text, in a stable order: what a dry
// run, a preview or a read must leave alone, compared before and after.
QStringList everyRow(const QSqlDatabase &db);
