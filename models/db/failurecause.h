// A database error in plain words for the window's banner: "the server refuses connections"
// rather than a paragraph of libpq. The driver's text stays available as the detail, with any
// password masked.
#pragma once

#include <QString>

struct FailureCause
{
    QString plain; // a short clause, e.g. "the server refuses connections (is it running?)"
    QString detail; // the driver's words, passwords masked
    bool unreachable = false; // the database could not be reached (vs. it answered with an error)
    // The server refused the credentials (SQLSTATE 28P01/28000, or no password was given):
    // trying again every interval cannot help and may lock the account, so tries back off.
    bool authentication = false;

    // The longest wait between two tries after an authentication failure.
    static constexpr qint64 AuthRetryCapMs = 5 * 60 * 1000;

    // The one sentence every view names this failure by, the start window, the stale banner,
    // the status bar and the desktop alerts alike: "Cannot reach the database: the server
    // refuses connections (is it running?)", or, when the database answered, "Cannot read the
    // outbox: the database or a table does not exist". The detail goes behind "Details".
    QString headline() const;

    static FailureCause of(const QString &error);
    // The server rolled the transaction (or its statement) back only because another
    // transaction held a lock it needed: a deadlock (MySQL and MariaDB 1213, PostgreSQL
    // 40P01), a lock wait timeout (1205) or a serialization failure (40001). Nothing of it was
    // committed, and the same transaction run again may succeed.
    static bool isLockConflict(const QString &error);
    // A COMMIT that failed with this error may have committed: the connection was lost (or the
    // server went away) after it was sent, so its answer never came. A refusal (a lock
    // conflict, a constraint checked at commit) rolled back: not unknown.
    static bool isOutcomeUnknown(const QString &commitError);
    // A read-only transaction refused to prepare a statement that writes (MariaDB's 1792, "Cannot
    // execute statement in a READ ONLY transaction", given for a PREPARE too; PostgreSQL and
    // SQLite refuse such a statement only when it runs).
    static bool isReadOnlyRefusal(const QString &error);
    static FailureCause noAnswer(int seconds);
    // The wait before the next try after `failures` authentication failures in a row (1 = the
    // first): the interval, doubled after each one, at most AuthRetryCapMs.
    static qint64 authRetryDelayMs(int failures, qint64 intervalMs);
    // "5 s", "2 min": a wait as the logs and the rows say it.
    static QString waitText(qint64 ms);
};
