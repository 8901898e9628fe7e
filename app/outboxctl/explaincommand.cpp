// outboxctl explain --db URL --event ID [--profile NAME|PATH] [--now MS] [--policy SPEC]
// [--budget N] [--json]: one event explained in plain words (EventExplainer): where it is,
// why, and what happens next. The retry policy and budget are the relay's (the database does
// not hold them); without them the text leaves them out. Then the event's current operator
// notes, one a line (JSON: "notes":[...] when it has some). Read-only; exit 0, 2 on any error
// (also an unknown event, named in JSON too with --json).
#include "cli.h"
#include "eventlookup.h"
#include "explainreport.h"

#include <QJsonDocument>

namespace {

bool readExplainOptions(const QCommandLineParser &parser, ExplainOptions *options, QString *error)
{
    if (parser.isSet(u"policy"_qs)) {
        RetryPolicy policy;
        if (!RetryPolicy::parse(parser.value(u"policy"_qs), &policy, error)) {
            *error = u"--policy: "_qs + *error;
            return false;
        }
        options->policy = policy;
    }
    qint64 budget = -1;
    if (!Cli::readNumber(parser, u"budget"_qs, 1, 1000, &budget, error))
        return false;
    if (budget > 0)
        options->budget = int(budget);
    return true;
}

} // namespace

int runExplain(const QStringList &arguments)
{
    QCommandLineParser parser;
    Cli::addDatabaseOptions(parser);
    Cli::addNotesDbOption(parser);
    parser.addOption({u"event"_qs, u"The event to explain."_qs, u"ID"_qs});
    Cli::addNowOption(parser, u"The time to explain at"_qs);
    parser.addOption(
        {u"policy"_qs, u"The relay's retry policy spec, named in the text."_qs, u"SPEC"_qs});
    parser.addOption({u"budget"_qs, u"The relay's attempt budget, named in the text."_qs, u"N"_qs});
    Cli::addJsonOption(
        parser, u"Print {\"event_id\",\"state\",\"explanation\",\"facts\":{...}}."_qs);
    qint64 now = 0;
    ExplainOptions explain;
    const auto read = [&](QString *error) {
        return Cli::requireValue(parser, u"event"_qs, error) && Cli::readNow(parser, &now, error)
            && readExplainOptions(parser, &explain, error) && Cli::applyNotesDb(parser, error);
    };
    int exitCode = Cli::Ok;
    const auto outbox = Cli::openReport(parser, u"explain"_qs, arguments, read, &exitCode);
    if (!outbox)
        return exitCode;
    if (const int refused = Cli::refuseUnusableNotesDb(parser, *outbox, u"explain"_qs))
        return refused;
    QString error;
    const QString id = parser.value(u"event"_qs);
    const auto unknown = EventLookup::unknown(outbox->database(), &outbox->profile, {id}, &error);
    if (!unknown)
        return Cli::fail(QStringLiteral("explain: reading %1: %2").arg(outbox->name(), error));
    if (!unknown->isEmpty())
        return Cli::failUnknownEvents(u"explain"_qs, *unknown, parser.isSet(u"json"_qs));
    const auto report = ExplainReport::read(*outbox, id, now, explain, &error);
    if (!report)
        return Cli::fail(u"explain: "_qs + error);
    if (parser.isSet(u"json"_qs)) {
        Cli::printLine(
            QString::fromUtf8(QJsonDocument(report->toJson()).toJson(QJsonDocument::Compact)));
        return Cli::Ok;
    }
    const EventExplanation *explanation = &report->explanation;
    QString text = Cli::printable(explanation->text(Advice::Surface::Cli));
    for (const QString &line : explanation->attemptLines(now))
        text += u"\n  "_qs + Cli::printable(line);
    for (const OperatorNote &note : report->notes)
        text += QStringLiteral("\nnote #%1 by %2 at %3%4: %5")
                    .arg(note.id)
                    .arg(Cli::printable(note.operatorName), Cli::timeText(note.createdAt),
                        note.marker.isEmpty() ? QString() : u" ["_qs + note.marker + u']',
                        Cli::printable(note.text));
    Cli::printLine(text);
    return Cli::Ok;
}
