// outboxctl note add|list|clear: operator notes and markers (OperatorNotes, native schema
// version 3).
//   note add --db URL (--event ID | --error-group SIGNATURE) --operator NAME --text TEXT
//            [--marker investigating|on-hold] [--now MS] [--json]
//   note list --db URL [--event ID | --error-group SIGNATURE] [--all] [--json]
//   note clear --db URL (--note ID | --event ID | --error-group SIGNATURE) --operator NAME
//            [--now MS] [--json]
// Exit 0, or 2 on any error or refusal (nothing written then): wrong arguments, a schema older
// than version 3, a profile's schema, the role's grants, an event that is not DEAD or not
// there, a note too long or holding control characters.
#include "cli.h"
#include "notesaccess.h"
#include "operatorcommand.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace {

enum class Action { Add, List, Clear };

// The line on stderr and, with --json, {"error":TEXT} on stdout: --json always ends with JSON.
int fail(const QString &message, bool json)
{
    if (json)
        Cli::printLine(u"{\"error\":"_qs + OperatorCommand::jsonString(message) + u'}');
    return Cli::fail(message);
}

void addNoteOptions(QCommandLineParser &parser)
{
    parser.setApplicationDescription(
        u"Add, list or clear operator notes and markers: outboxctl note add|list|clear."_qs);
    Cli::addDatabaseOptions(
        parser, u"Notes need the native schema, or --notes-db through another profile."_qs);
    Cli::addNotesDbOption(parser);
    parser.addOption({u"event"_qs, u"The DEAD event the note is on."_qs, u"ID"_qs});
    parser.addOption({u"error-group"_qs,
        u"The error group (a signature, see outboxctl errors) the note is on."_qs,
        u"SIGNATURE"_qs});
    parser.addOption({u"note"_qs, u"clear: the note to clear, by its ID."_qs, u"ID"_qs});
    parser.addOption({u"operator"_qs,
        u"add: who writes the note; clear: who clears it (both recorded)."_qs, u"NAME"_qs});
    parser.addOption({u"text"_qs,
        QStringLiteral("add: the note (at most %1 characters; shown as plain text).")
            .arg(OperatorNotes::MaxTextLength),
        u"TEXT"_qs});
    parser.addOption({u"marker"_qs,
        u"add: investigating, or on-hold (bulk replay leaves its events out)."_qs, u"M"_qs});
    parser.addOption({u"all"_qs, u"list: cleared notes too."_qs});
    Cli::addNowOption(parser, u"The note's time"_qs);
    Cli::addJsonOption(parser, u"Print the notes (list) or the outcome as JSON."_qs);
}

std::optional<Action> actionOf(const QString &word)
{
    if (word == u"add"_qs)
        return Action::Add;
    if (word == u"list"_qs)
        return Action::List;
    if (word == u"clear"_qs)
        return Action::Clear;
    return std::nullopt;
}

// --event and --error-group: at most one (exactly one for add).
bool readTarget(const QCommandLineParser &parser, NoteTarget *target, QString *error)
{
    target->eventId = parser.value(u"event"_qs);
    target->errorGroup = parser.value(u"error-group"_qs).trimmed();
    if ((parser.isSet(u"event"_qs) && target->eventId.trimmed().isEmpty())
        || (parser.isSet(u"error-group"_qs) && target->errorGroup.isEmpty())) {
        *error = u"--event and --error-group need a value"_qs;
        return false;
    }
    if (target->isEvent() && !target->errorGroup.isEmpty()) {
        *error = u"give either --event or --error-group, not both"_qs;
        return false;
    }
    return true;
}

QString noteLine(const OperatorNote &note)
{
    const QString on = note.eventId.isEmpty()
        ? QStringLiteral("error group '%1'").arg(Cli::printable(note.errorGroup))
        : QStringLiteral("event %1").arg(Cli::printable(note.eventId));
    QString line = QStringLiteral("#%1 %2, %3 by %4%5: %6")
                       .arg(note.id)
                       .arg(on, Cli::timeText(note.createdAt), Cli::printable(note.operatorName),
                           note.marker.isEmpty() ? QString() : u" ["_qs + note.marker + u']',
                           Cli::printable(note.text));
    if (note.clearedAt)
        line += QStringLiteral(" (cleared %1 by %2)")
                    .arg(Cli::timeText(*note.clearedAt), Cli::printable(note.clearedBy));
    return line;
}

int add(const QCommandLineParser &parser, OperatorNotes &notes, const Cli::Outbox &outbox,
    NoteRequest request, bool json)
{
    request.operatorName = parser.value(u"operator"_qs);
    request.text = parser.value(u"text"_qs);
    request.marker = parser.value(u"marker"_qs).trimmed();
    QString error;
    const std::optional<qint64> id = notes.add(request, &error);
    if (!id)
        return fail(QStringLiteral("note add: %1: %2").arg(outbox.name(), error), json);
    Cli::printLine(json ? QStringLiteral("{\"note_id\":%1}").arg(*id)
                        : QStringLiteral("added note #%1").arg(*id));
    return Cli::Ok;
}

int list(const QCommandLineParser &parser, OperatorNotes &notes, const Cli::Outbox &outbox,
    const NoteTarget &target, bool json)
{
    QString error;
    const auto found = notes.list(target, parser.isSet(u"all"_qs), &error);
    if (!found)
        return fail(QStringLiteral("note list: %1: %2").arg(outbox.name(), error), json);
    if (json) {
        QJsonArray array;
        for (const OperatorNote &note : *found)
            array.append(note.toJson());
        Cli::printLine(QString::fromUtf8(
            QJsonDocument(QJsonObject {{u"notes"_qs, array}}).toJson(QJsonDocument::Compact)));
        return Cli::Ok;
    }
    if (found->isEmpty())
        Cli::printLine(u"no notes"_qs);
    for (const OperatorNote &note : *found)
        Cli::printLine(noteLine(note));
    return Cli::Ok;
}

int clear(const QCommandLineParser &parser, OperatorNotes &notes, const Cli::Outbox &outbox,
    const NoteTarget &target, qint64 now, bool json)
{
    qint64 noteId = 0;
    QString error;
    if (!Cli::readNumber(parser, u"note"_qs, 1, Cli::MaxTimeMs, &noteId, &error))
        return fail(u"note clear: "_qs + error, json);
    const std::optional<int> cleared
        = notes.clear(target, noteId, parser.value(u"operator"_qs), now, &error);
    if (!cleared)
        return fail(QStringLiteral("note clear: %1: %2").arg(outbox.name(), error), json);
    Cli::printLine(json ? QStringLiteral("{\"cleared\":%1}").arg(*cleared)
                        : QStringLiteral("cleared %1 note%2")
                              .arg(*cleared)
                              .arg(*cleared == 1 ? QString() : u"s"_qs));
    return Cli::Ok;
}

// The words of the command line that each action does not take: refused, not ignored.
QString misplaced(const QCommandLineParser &parser, Action action)
{
    const QHash<Action, QStringList> foreign = {
        {Action::Add, {u"note"_qs, u"all"_qs}},
        {Action::List, {u"note"_qs, u"operator"_qs, u"text"_qs, u"marker"_qs}},
        {Action::Clear, {u"text"_qs, u"marker"_qs, u"all"_qs}},
    };
    for (const QString &option : foreign.value(action)) {
        if (parser.isSet(option))
            return QStringLiteral("--%1 is not an option of this action").arg(option);
    }
    if (action == Action::Clear && parser.isSet(u"note"_qs)
        && (parser.isSet(u"event"_qs) || parser.isSet(u"error-group"_qs)))
        return u"give --note, --event or --error-group, one of them"_qs;
    return {};
}

} // namespace

int runNote(QStringList arguments)
{
    QCommandLineParser parser;
    addNoteOptions(parser);
    std::optional<Action> action;
    if (!arguments.isEmpty() && !arguments.constFirst().startsWith(u'-')) {
        action = actionOf(arguments.constFirst());
        if (!action)
            return Cli::fail(QStringLiteral("note: unknown action '%1' (expected add, list or "
                                            "clear)")
                                 .arg(arguments.constFirst()));
        arguments.removeFirst();
    }
    int exitCode = Cli::Ok;
    if (!Cli::parse(parser, u"note"_qs, arguments, &exitCode))
        return exitCode;
    if (!action)
        return Cli::fail(u"note: say what to do: note add, note list or note clear"_qs);
    const bool json = parser.isSet(u"json"_qs);
    const QString name = QStringList {u"add"_qs, u"list"_qs, u"clear"_qs}.at(int(*action));
    const QString prefix = u"note "_qs + name + u": "_qs;
    NoteRequest request;
    QString error = misplaced(parser, *action);
    if (!error.isEmpty() || !Cli::requireDatabase(parser, &error)
        || !readTarget(parser, &request.target, &error)
        || !Cli::readNow(parser, &request.now, &error) || !Cli::applyNotesDb(parser, &error))
        return fail(prefix + error, json);
    if (*action == Action::Add) { // the words checked before the database is opened
        request.operatorName = parser.value(u"operator"_qs);
        request.text = parser.value(u"text"_qs);
        request.marker = parser.value(u"marker"_qs).trimmed();
        if (error = OperatorNotes::invalid(request); !error.isEmpty())
            return fail(prefix + error, json);
    }
    const bool readOnly = *action == Action::List;
    const auto outbox = Cli::openOutbox(parser, Cli::outboxOptions(readOnly), &error);
    if (!outbox)
        return fail(error, json);
    OperatorNotes notes = NotesAccess::open(outbox->database(), &outbox->profile);
    if (error = notes.unavailable(); !error.isEmpty())
        return fail(prefix + error, json);
    if (!readOnly) {
        const auto operation = *action == Action::Add ? TableGrants::Operation::NoteAdd
                                                      : TableGrants::Operation::NoteClear;
        if (error = Cli::grantsRefusal(*outbox, operation, u"note "_qs + name); !error.isEmpty())
            return fail(error, json);
    }
    switch (*action) {
    case Action::Add:
        return add(parser, notes, *outbox, request, json);
    case Action::List:
        return list(parser, notes, *outbox, request.target, json);
    case Action::Clear:
        return clear(parser, notes, *outbox, request.target, request.now, json);
    }
    return Cli::Error;
}
