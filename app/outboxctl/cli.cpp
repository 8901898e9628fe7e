// Cli's printing, errors, parsing and help (cli.h); the options are read in clioptions.cpp, the
// database opened in clidatabase.cpp, and the commands are the table in commands.cpp.
#include "cli.h"

#include "commands.h"
#include "plaintext.h"
#include "timeformat.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

namespace Cli {

QString printable(const QString &text)
{
    return PlainText::escaped(DatabaseUrl::maskPasswords(text));
}

int fail(const QString &message)
{
    QTextStream(stderr) << "outboxctl: " << printable(message) << Qt::endl;
    return Error;
}

void printLine(const QString &line)
{
    static QTextStream out(stdout);
    out << line << Qt::endl;
}

QString timeText(qint64 time)
{
    return TimeFormat::isLogical(time) ? QStringLiteral("t=%1").arg(time)
                                       : TimeFormat::isoLocal(time);
}

int failUnknownEvents(
    const QString &command, const QStringList &ids, bool json, const QString &then)
{
    QStringList quoted;
    for (const QString &id : ids)
        quoted << QLatin1Char('\'') + id + QLatin1Char('\'');
    const QString message = ids.size() == 1
        ? QStringLiteral("no event with ID %1").arg(quoted.constFirst())
        : QStringLiteral("no events with IDs %1").arg(quoted.join(QStringLiteral(", ")));
    if (json) {
        QJsonArray unknown;
        for (const QString &id : ids)
            unknown.append(QJsonObject {{QStringLiteral("event_id"), id},
                {QStringLiteral("reason"), QStringLiteral("not found")}});
        printLine(QString::fromUtf8(QJsonDocument(QJsonObject {{QStringLiteral("error"), message},
                                                      {QStringLiteral("unknown_events"), unknown}})
                                        .toJson(QJsonDocument::Compact)));
    }
    return fail(command + QStringLiteral(": ") + message + then);
}

namespace {

// Qt's parser errors ("Unknown option 'x'.", "Missing value after '--db'.") in the program's own
// style: a lower-case first letter (not of an acronym) and no full stop at the end.
QString ownStyle(QString text)
{
    text = text.trimmed();
    while (text.endsWith(QLatin1Char('.')))
        text.chop(1);
    if (text.size() > 1 && text.at(0).isUpper() && !text.at(1).isUpper())
        text[0] = text.at(0).toLower();
    return text;
}

} // namespace

QString helpText(const QCommandLineParser &parser, const QString &command)
{
    // Qt names the program by the path it was started with; name the command instead.
    QString help = parser.helpText();
    help.replace(0, help.indexOf(QLatin1Char('\n')),
        QStringLiteral("Usage: outboxctl %1 [options]").arg(command));
    const Command *found = findCommand(command);
    if (found && !found->examples.isEmpty())
        help += QStringLiteral("\nExamples:\n") + found->examples;
    return help;
}

bool parse(
    QCommandLineParser &parser, const QString &command, const QStringList &arguments, int *exitCode)
{
    const Command *found = findCommand(command);
    if (parser.applicationDescription().isEmpty())
        parser.setApplicationDescription(
            found ? found->helpDescription() : QStringLiteral("outboxctl ") + command);
    const QCommandLineOption help(
        {QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help."));
    parser.addOption(help);
    if (!parser.parse(QStringList {QStringLiteral("outboxctl ") + command} + arguments)) {
        *exitCode = fail(command + QStringLiteral(": ") + ownStyle(parser.errorText()));
        return false;
    }
    if (parser.isSet(help)) {
        QTextStream(stdout) << helpText(parser, command);
        *exitCode = Ok;
        return false;
    }
    if (!parser.positionalArguments().isEmpty()) {
        *exitCode = fail(command + QStringLiteral(": unexpected argument '")
            + parser.positionalArguments().constFirst() + QLatin1Char('\''));
        return false;
    }
    return true;
}

} // namespace Cli
