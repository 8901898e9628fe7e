// outboxctl export --db URL [--profile NAME|PATH] [--state STATE] [--error-category C]
// [--older-than DURATION] [--payload-contains TEXT] [--now MS] [--audit | --notes]
// [--output FILE]: the CSV of the window's "Export events…" (or, with --audit, the audit: the
// columns of "Export replay log…" and, appended, the notes and payload revisions; with --notes,
// of the operator notes) for scripts, through the same code
// (CsvExport): the payload redacted with the dashboard's list, cells that could start a
// formula neutralised. Rows stream from the database to the file or standard output; a file
// is replaced only when the whole export succeeded. Read-only, like `check`. Exit 0 written,
// 2 any error.
#include "cli.h"
#include "csvexport.h"
#include "notesaccess.h"
#include "redaction.h"
#include "schema.h"

#include <QFile>
#include <QSaveFile>

namespace {

struct ExportOptions
{
    EventFilter filter;
    qint64 now = 0;
    bool audit = false;
    bool notes = false;
    QString output; // empty = standard output
};

void addExportOptions(QCommandLineParser &parser)
{
    Cli::addDatabaseOptions(parser);
    Cli::addNotesDbOption(parser);
    parser.addOption({u"state"_qs,
        u"Only events in this state: any, pending, due, scheduled, in-flight, lease-expired, "
        "delivered, dead (default: any)."_qs,
        u"STATE"_qs});
    parser.addOption({u"error-category"_qs,
        u"Only events whose last error has this category (TRANSIENT or PERMANENT)."_qs, u"C"_qs});
    Cli::addDurationOption(
        parser, u"older-than"_qs, u"Only events created at least this long before --now."_qs);
    Cli::addPayloadContainsOption(parser, {});
    Cli::addNowOption(parser, u"The time states and ages are judged at"_qs);
    parser.addOption({u"audit"_qs,
        u"Export the audit instead of the events: the replay log's rows, then the operator "
        "notes and the payload revisions (kind column); through a profile, the actions on this "
        "outbox recorded in the audit store (--notes-db)."_qs});
    parser.addOption({u"notes"_qs,
        u"Export the operator notes (operator_note, cleared ones too) instead of the events."_qs});
    parser.addOption({u"output"_qs, u"Write to FILE instead of standard output."_qs, u"FILE"_qs});
}

bool readFilter(const QCommandLineParser &parser, ExportOptions *options, QString *error)
{
    if (parser.isSet(u"state"_qs)) {
        const std::optional<EventFilter::State> state
            = EventFilter::stateFromName(parser.value(u"state"_qs).trimmed());
        if (!state) {
            *error = QStringLiteral("--state must be one of any, pending, due, scheduled, "
                                    "in-flight, lease-expired, delivered, dead, not '%1'")
                         .arg(parser.value(u"state"_qs));
            return false;
        }
        options->filter.state = *state;
    }
    qint64 olderThan = -1;
    if (!Cli::readDuration(parser, u"older-than"_qs, 0, Cli::MaxTimeMs, &olderThan, error)
        || !Cli::readErrorCategory(parser, &options->filter.errorCategory, error)
        || !Cli::readPayloadContains(parser, &options->filter.payloadContains, error))
        return false;
    if (olderThan >= 0)
        options->filter.minAgeMs = olderThan;
    return true;
}

bool readOptions(const QCommandLineParser &parser, ExportOptions *options, QString *error)
{
    if (!Cli::requireDatabase(parser, error) || !readFilter(parser, options, error)
        || !Cli::readNow(parser, &options->now, error))
        return false;
    options->audit = parser.isSet(u"audit"_qs);
    options->notes = parser.isSet(u"notes"_qs);
    if (options->audit && options->notes) {
        *error = u"give either --audit (the replay log) or --notes, not both"_qs;
        return false;
    }
    if ((options->audit || options->notes) && !(options->filter == EventFilter {})) {
        *error
            = QStringLiteral("--state, --error-category, --older-than and --payload-contains "
                             "narrow the events; %1 is exported whole")
                  .arg(options->audit ? u"the replay log (--audit)"_qs : u"the notes (--notes)"_qs);
        return false;
    }
    if (parser.isSet(u"output"_qs)) {
        options->output = parser.value(u"output"_qs);
        if (options->output.trimmed().isEmpty()) {
            *error = u"--output needs a file name"_qs;
            return false;
        }
    }
    return true;
}

// The CSV onto `out`: the events the filter matches, read through the profile, or the log.
bool write(const DbConnection &connection, const OutboxProfile &profile,
    const ExportOptions &options, QIODevice *out, qint64 *rows, QString *error)
{
    const QSqlDatabase db = connection.database();
    if (options.notes) {
        const OperatorNotes notes = NotesAccess::open(db, &profile);
        if (*error = notes.unavailable(); !error->isEmpty())
            return false;
        return CsvExport::exportNotes(notes.notesDatabase(), out, error, rows);
    }
    if (options.audit) {
        if (!profile.hasReplayLog()) { // the actions through the profile, in the audit store
            const ProfileAudit audit = NotesAccess::audit(db, profile);
            if (*error = audit.unavailable(profile.name(), u"replay"_qs); !error->isEmpty()) {
                // "pg-boss: every replay ... makes one); nothing replayed" without its ends
                const QString why = error->section(u"; nothing"_qs, 0, 0).section(u": "_qs, 1);
                *error = QStringLiteral("--audit: profile %1 has no replay log; %2")
                             .arg(profile.name(), why);
                return false;
            }
            return CsvExport::exportProfileAudit(audit.store(), audit.outbox(), out, error, rows);
        }
        // A version 2 schema has replays only; version 3 notes and payload revisions too.
        const OperatorNotes notes = NotesAccess::open(db, &profile);
        const bool current = Schema::version(db) >= OperatorNotes::NotesVersion;
        return CsvExport::exportAudit(
            db, notes.notesDatabase(), current, current, out, error, rows);
    }
    return CsvExport::exportEvents(db, options.filter, options.now,
        Redaction::dashboardSensitiveKeys(), out, error, rows,
        profile.source(OutboxProfile::engineOf(db)));
}

} // namespace

int runExport(const QStringList &arguments)
{
    QCommandLineParser parser;
    addExportOptions(parser);
    int exitCode = Cli::Ok;
    if (!Cli::parse(parser, u"export"_qs, arguments, &exitCode))
        return exitCode;
    ExportOptions options;
    QString error;
    if (!readOptions(parser, &options, &error) || !Cli::applyNotesDb(parser, &error))
        return Cli::fail(u"export: "_qs + error);
    OpenOptions open;
    open.readOnly = true; // export never writes to the database
    const auto outbox = Cli::openOutbox(parser, open, &error);
    if (!outbox)
        return Cli::fail(error);
    if (const int refused = Cli::refuseUnusableNotesDb(parser, *outbox, u"export"_qs))
        return refused;
    if (!options.filter.payloadContains.isEmpty()) {
        if (const QString refusal = Cli::payloadSearchRefusal(outbox->profile); !refusal.isEmpty())
            return Cli::fail(u"export: "_qs + refusal);
    }

    qint64 rows = 0;
    const QString what
        = options.audit ? u"audit row"_qs : (options.notes ? u"note"_qs : u"event"_qs);
    if (options.output.isEmpty()) {
        QFile out;
        if (!out.open(stdout, QIODevice::WriteOnly))
            return Cli::fail(u"export: cannot write to standard output: "_qs + out.errorString());
        if (!write(*outbox->connection, outbox->profile, options, &out, &rows, &error))
            return Cli::fail(QStringLiteral("export: %1: %2").arg(outbox->name(), error));
        return Cli::Ok;
    }
    // Replaced only when every row is written: a failed export leaves the old file as it was.
    QSaveFile out(options.output);
    if (!out.open(QIODevice::WriteOnly))
        return Cli::fail(
            QStringLiteral("export: cannot write %1: %2").arg(options.output, out.errorString()));
    if (!write(*outbox->connection, outbox->profile, options, &out, &rows, &error))
        return Cli::fail(QStringLiteral("export: %1: %2").arg(outbox->name(), error));
    if (!out.commit())
        return Cli::fail(
            QStringLiteral("export: cannot write %1: %2").arg(options.output, out.errorString()));
    Cli::printLine(QStringLiteral("exported %1 %2%3 to %4")
                       .arg(rows)
                       .arg(what, rows == 1 ? QString() : u"s"_qs, Cli::printable(options.output)));
    return Cli::Ok;
}
