#include "readhazards.h"

#include "sqltext.h"

namespace {

const QString AnotherConnection
    = QStringLiteral("runs SQL on another connection, whose writes commit on their own");
const QString SessionLock
    = QStringLiteral("takes or drops a session lock, which outlives the read-only transaction");
const QString ServerFile = QStringLiteral("reads or writes a file on the database host");
const QString OtherSessions
    = QStringLiteral("acts on other sessions or on the server itself, outside the transaction");
const QString SqlFromText
    = QStringLiteral("runs SQL written in a string, which the check of names cannot read");

QList<ReadHazards::Entry> entries()
{
    using E = ReadHazards::Entry;
    return {
        // Storing a read's result: nothing a profile field needs.
        E {QStringLiteral("into"),
            QStringLiteral("stores a result (MySQL's INTO OUTFILE and INTO DUMPFILE write a file on"
                           " the database host, INTO @var sets a variable that outlives the"
                           " transaction; PostgreSQL's SELECT INTO creates a table)")},
        E {QStringLiteral("outfile"), ServerFile},
        E {QStringLiteral("dumpfile"), ServerFile},
        // Another connection (dblink, postgres_fdw's connection functions).
        E {QStringLiteral("dblink*"), AnotherConnection},
        E {QStringLiteral("postgres_fdw_*"), AnotherConnection},
        // Files on the database host (adminpack, large objects, the server's file functions).
        E {QStringLiteral("pg_file_*"), ServerFile}, // pg_file_write, _rename, _unlink, _sync
        E {QStringLiteral("pg_logdir_ls"), ServerFile},
        E {QStringLiteral("lo_export"), ServerFile},
        E {QStringLiteral("lo_import"), ServerFile},
        E {QStringLiteral("pg_read_file"), ServerFile},
        E {QStringLiteral("pg_read_binary_file"), ServerFile},
        E {QStringLiteral("pg_ls_*"), ServerFile}, // pg_ls_dir, pg_ls_logdir, pg_ls_waldir, ...
        E {QStringLiteral("pg_stat_file"), ServerFile},
        E {QStringLiteral("load_file"), ServerFile}, // MySQL
        E {QStringLiteral("sys_exec"), QStringLiteral("runs a program on the database host")},
        E {QStringLiteral("sys_eval"), QStringLiteral("runs a program on the database host")},
        // Session locks.
        E {QStringLiteral("pg_advisory_*"), SessionLock},
        E {QStringLiteral("pg_try_advisory_*"), SessionLock},
        E {QStringLiteral("get_lock"), SessionLock}, // MySQL's named locks
        E {QStringLiteral("release_lock"), SessionLock},
        E {QStringLiteral("release_all_locks"), SessionLock},
        E {QStringLiteral("is_free_lock"), SessionLock},
        E {QStringLiteral("is_used_lock"), SessionLock},
        // Other sessions and the server.
        E {QStringLiteral("pg_terminate_backend"), OtherSessions},
        E {QStringLiteral("pg_cancel_backend"), OtherSessions},
        E {QStringLiteral("pg_reload_conf"), OtherSessions},
        E {QStringLiteral("pg_rotate_logfile"), OtherSessions},
        E {QStringLiteral("pg_promote"), OtherSessions},
        E {QStringLiteral("pg_switch_wal"), OtherSessions},
        E {QStringLiteral("pg_create_*"), OtherSessions}, // restore points, replication slots
        E {QStringLiteral("pg_drop_replication_slot"), OtherSessions},
        E {QStringLiteral("pg_replication_origin_*"), OtherSessions},
        E {QStringLiteral("pg_logical_emit_message"), OtherSessions},
        E {QStringLiteral("pg_stat_reset*"), OtherSessions},
        E {QStringLiteral("pg_log_backend_memory_contexts"), OtherSessions},
        E {QStringLiteral("set_config"),
            QStringLiteral("changes a setting for the statements after it (the tool's own"
                           " statement_timeout among them)")},
        // SQL in a string.
        E {QStringLiteral("query_to_xml*"), SqlFromText},
        E {QStringLiteral("query_to_xmlschema"), SqlFromText},
        E {QStringLiteral("ts_stat"), SqlFromText},
        E {QStringLiteral("U&"),
            QStringLiteral("is a name written with escapes, which could spell any name")},
    };
}

bool matches(const ReadHazards::Entry &entry, const QString &name)
{
    if (entry.name.endsWith(u'*'))
        return name.startsWith(entry.name.chopped(1), Qt::CaseInsensitive);
    return name.compare(entry.name, Qt::CaseInsensitive) == 0;
}

} // namespace

namespace ReadHazards {

const QList<Entry> &all()
{
    static const QList<Entry> list = entries();
    return list;
}

QString found(const QString &sql, std::optional<Engine> engine)
{
    for (const QString &name : SqlText::names(sql, engine)) {
        for (const Entry &entry : all()) {
            if (matches(entry, name))
                return name + QStringLiteral(", which ") + entry.why;
        }
    }
    return {};
}

} // namespace ReadHazards
