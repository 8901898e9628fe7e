// What the connected role may write, asked of the database itself (SqlDialect::mayWrite: the
// grants on PostgreSQL, the server's own check on MariaDB/MySQL, the file and the open mode on
// SQLite), so that an operation the database would refuse is offered disabled with the reason
// instead of failing after the operator has typed one. The window reads it on connect and after
// each reconnect (GrantsMonitor); outboxctl before it asks or changes anything.
// An operation is a list of writes (needs()); a new writer (edit, notes) adds its Operation and
// its writes there, or asks refusal(table, privilege) for a table of its own.
#pragma once

#include <QList>
#include <QMetaType>
#include <QSet>
#include <QSqlDatabase>
#include <QString>
#include <QStringList>

class TableGrants
{
public:
    // NoteAdd writes a note (INSERT only), NoteClear marks notes cleared (UPDATE of two columns
    // only): each asks exactly what its statement needs.
    enum class Operation { Replay, Resolve, Reopen, Purge, NoteAdd, NoteClear, Edit };
    // One write an operation makes: the privilege on the table (for UPDATE, of these columns).
    struct Write
    {
        QString table;
        QString privilege; // INSERT, UPDATE or DELETE
        QStringList columns; // UPDATE: the columns set; empty otherwise
    };

    // The native schema's writes of `operation`: the outbox row, then its audit log.
    static QList<Write> needs(Operation operation);
    // Asks over `db` about every write in `writes` (each once). A write the server cannot
    // answer for (a log table an older schema lacks) is not refused: the operation says why.
    static TableGrants read(const QSqlDatabase &db, const QList<Write> &writes);
    // ... about every write of every operation.
    static TableGrants read(const QSqlDatabase &db);

    // False until read (or when no write could be asked about): nothing is refused then.
    bool isKnown() const { return m_known; }
    QString role() const { return m_role; } // empty where there is none (a SQLite file)
    // Empty when the role may; otherwise one line naming the missing privilege:
    // "the role 'reader' may not UPDATE delivery_outbox".
    QString refusal(const QString &table, const QString &privilege) const;
    // The first of the operation's writes the role may not make, in the same words.
    QString refusal(Operation operation) const;
    // True when every operation on the outbox's events is refused: "read-only by the
    // database's grants" (notes, a table of their own, do not count).
    bool isReadOnly() const;

    bool operator==(const TableGrants &other) const = default;

private:
    bool m_known = false;
    QString m_role;
    QSet<QString> m_denied; // "UPDATE delivery_outbox"
};

Q_DECLARE_METATYPE(TableGrants)
