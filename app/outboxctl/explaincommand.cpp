// outboxctl explain --db URL --event ID [--profile NAME|PATH] [--now MS] [--policy SPEC]
// [--budget N] [--json]: one event explained in plain words (EventExplainer): where it is,
// why, and what happens next. The retry policy and budget are the relay's (the database does
// not hold them); without them the text leaves them out. Read-only; exit 0, 2 on any error
// (also an unknown event).
#include "cli.h"
#include "eventexplainer.h"

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
    parser.addOption({u"db"_qs, u"Database URL."_qs, u"URL"_qs});
    Cli::addProfileOption(parser);
    parser.addOption({u"event"_qs, u"The event to explain."_qs, u"ID"_qs});
    parser.addOption(
        {u"now"_qs, u"The time to explain at, ms since the epoch (default: now)."_qs, u"MS"_qs});
    parser.addOption(
        {u"policy"_qs, u"The relay's retry policy spec, named in the text."_qs, u"SPEC"_qs});
    parser.addOption({u"budget"_qs, u"The relay's attempt budget, named in the text."_qs, u"N"_qs});
    parser.addOption(
        {u"json"_qs, u"Print {\"event_id\",\"state\",\"explanation\",\"facts\":{...}}."_qs});
    int exitCode = Cli::Ok;
    if (!Cli::parse(parser, u"explain"_qs, arguments, &exitCode))
        return exitCode;
    QString error;
    qint64 now = 0;
    ExplainOptions explain;
    if (!Cli::requireValue(parser, u"db"_qs, &error)
        || !Cli::requireValue(parser, u"event"_qs, &error) || !Cli::readNow(parser, &now, &error)
        || !readExplainOptions(parser, &explain, &error))
        return Cli::fail(u"explain: "_qs + error);
    const DatabaseUrl url = DatabaseUrl::parse(parser.value(u"db"_qs), &error);
    if (!url.isValid())
        return Cli::fail(error);
    OpenOptions options;
    options.readOnly = true;
    options.statementTimeoutMs = 60000;
    std::optional<OutboxProfile> profile;
    const auto connection = Cli::openWithProfile(url, options, parser, &profile, &error);
    if (!connection)
        return Cli::fail(error);
    const auto explanation = EventExplainer::explain(
        connection->database(), parser.value(u"event"_qs), now, &error, &*profile, explain);
    if (!explanation)
        return Cli::fail(u"explain: "_qs + error);
    Cli::printLine(parser.isSet(u"json"_qs)
            ? QString::fromUtf8(QJsonDocument(explanation->toJson()).toJson(QJsonDocument::Compact))
            : Cli::printable(explanation->explanation));
    return Cli::Ok;
}
