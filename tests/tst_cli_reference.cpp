// One source for the command reference: for every command that `outboxctl --help` lists, the
// options of `outboxctl COMMAND --help` (declared with QCommandLineParser) are exactly the ones
// documented in that command's section of the man page (resources/man/outboxctl.1: the .SS
// heading and the .TP tags) and of docs/outboxctl.md (the `## outboxctl NAME` section: the
// first cell of its options table). -h/--help, which every command takes, is documented once.
// The other way round, the man page's and docs/outboxctl.md's command sections are exactly the
// commands `outboxctl --help` lists (app/outboxctl/commands.cpp, the table of commands), and the
// man page as built ($OUTBOX_MAN_PAGE) lists the table's commands and summaries.
#include "outboxctlrun.h"
#include "testdata.h"
#include "testmain.h"

#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <optional>

namespace {

const QString Source = TestData::sourceDir();
const QString Help = QStringLiteral("help");

QStringList readLines(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return {};
    return QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
}

// Every --name in `text`, without the dashes; --help left out. A name may hold dots between
// its words, as Prometheus's --web.config.file does (not at its end: "see --config." is config).
QSet<QString> optionNames(const QString &text)
{
    static const QRegularExpression option(
        QStringLiteral("--([a-z0-9][a-z0-9-]*(?:\\.[a-z0-9][a-z0-9-]*)*)"));
    QSet<QString> names;
    auto matches = option.globalMatch(text);
    while (matches.hasNext())
        names.insert(matches.next().captured(1));
    names.remove(Help);
    return names;
}

// The indented lines after `title` up to the next section ("Options:", "Examples:"): a blank
// or unindented line.
QStringList block(const QStringList &lines, const QString &title)
{
    const qsizetype start = lines.indexOf(title);
    if (start < 0)
        return {};
    QStringList body;
    for (qsizetype i = start + 1; i < lines.size() && lines.at(i).startsWith(QLatin1Char(' ')); ++i)
        body << lines.at(i);
    return body;
}

// The commands `outboxctl --help` lists, one a line: "  NAME  what it does", as
// "NAME what it does".
QStringList listedSummaries()
{
    static const QRegularExpression command(QStringLiteral("^  ([a-z]+)  +(\\S.*)$"));
    QStringList commands;
    for (const QString &line :
        block(outboxctl({QStringLiteral("--help")}).out, QStringLiteral("Commands:"))) {
        const QRegularExpressionMatch match = command.match(line);
        if (match.hasMatch())
            commands << match.captured(1) + QLatin1Char(' ') + match.captured(2);
    }
    return commands;
}

QStringList listedCommands()
{
    QStringList commands = listedSummaries();
    for (QString &command : commands)
        command = command.section(QLatin1Char(' '), 0, 0);
    return commands;
}

// The command list of the man page as built (cmake/ManCommands.cmake): the page is the source's
// but for its `@COMMAND-LIST@` line, in whose place each command is a .TP entry (".TP",
// ".B NAME", its summary), read back as "NAME summary". Empty with *why when the page is not
// the source's around the list.
QStringList builtManList(const QStringList &source, const QStringList &built, QString *why)
{
    const qsizetype marker = source.indexOf(QStringLiteral(".\\\" @COMMAND-LIST@"));
    const qsizetype after = source.size() - marker - 1;
    if (marker < 0 || built.size() < source.size() - 1
        || built.mid(0, marker) != source.mid(0, marker)
        || built.mid(built.size() - after) != source.mid(marker + 1)) {
        *why = QStringLiteral("not the source page with its command list written in");
        return {};
    }
    const QStringList entries = built.mid(marker, built.size() - after - marker);
    QStringList list;
    for (qsizetype i = 0; i + 2 < entries.size(); i += 3) {
        if (entries.at(i) != u".TP"_qs || !entries.at(i + 1).startsWith(u".B "_qs)) {
            *why = u"not a .TP entry: "_qs + entries.at(i);
            return {};
        }
        list << entries.at(i + 1).mid(3) + QLatin1Char(' ')
                + QString(entries.at(i + 2)).replace(u"\\-"_qs, u"-"_qs);
    }
    if (entries.size() % 3 != 0)
        *why = QStringLiteral("an entry cut short");
    return list;
}

// The options of `outboxctl COMMAND --help`: Qt starts each at two spaces ("  --db <URL>",
// "  -h, --help"); a description's wrapped lines are indented further.
QSet<QString> helpOptions(const QString &command)
{
    static const QRegularExpression option(
        QStringLiteral("^  (?:-[a-zA-Z], )?(--[a-z0-9-]+(?:\\.[a-z0-9-]+)*)"));
    QString names;
    for (const QString &line :
        block(outboxctl({command, QStringLiteral("--help")}).out, QStringLiteral("Options:"))) {
        const QRegularExpressionMatch match = option.match(line);
        if (match.hasMatch())
            names += match.captured(1) + QLatin1Char(' ');
    }
    return optionNames(names);
}

// The man page's section of `command`: from `.SS "command ...` to the next .SS or .SH. Its
// options are those of the .SS heading (the synopsis) and of each .TP tag (the line after it).
std::optional<QSet<QString>> manOptions(const QString &command)
{
    const QStringList lines = readLines(Source + QStringLiteral("/resources/man/outboxctl.1"));
    const QString heading = QStringLiteral(".SS \"") + command;
    qsizetype i = 0;
    while (i < lines.size()
        && !(lines.at(i) == heading + QLatin1Char('"')
            || lines.at(i).startsWith(heading + QLatin1Char(' '))))
        ++i;
    if (i == lines.size())
        return std::nullopt;
    QString documented = lines.at(i);
    for (++i; i < lines.size() && !lines.at(i).startsWith(QLatin1String(".S")); ++i) {
        if (lines.at(i) == QLatin1String(".TP") && i + 1 < lines.size())
            documented += QLatin1Char(' ') + lines.at(i + 1);
    }
    return optionNames(documented.replace(QLatin1String("\\-"), QLatin1String("-")));
}

// docs/outboxctl.md's section of `command`: from "## outboxctl command" to the next "## ". Its
// options are the first cells of table rows that start with an option ("| `--db URL` | ...").
std::optional<QSet<QString>> markdownOptions(const QString &command)
{
    const QStringList lines = readLines(Source + QStringLiteral("/docs/outboxctl.md"));
    qsizetype i = lines.indexOf(QStringLiteral("## outboxctl ") + command);
    if (i < 0)
        return std::nullopt;
    static const QRegularExpression cellEnd(QStringLiteral("(?<!\\\\)\\|"));
    QString documented;
    for (++i; i < lines.size() && !lines.at(i).startsWith(QLatin1String("## ")); ++i) {
        const QString &line = lines.at(i);
        if (!line.startsWith(QLatin1String("| `--")))
            continue;
        const qsizetype end = line.indexOf(cellEnd, 1);
        documented += QLatin1Char(' ') + line.mid(1, end < 0 ? -1 : end - 1);
    }
    return optionNames(documented);
}

// The commands that have a section: the first word of each `.SS "NAME ...` heading of the man
// page's COMMANDS, or each `## outboxctl NAME` heading of docs/outboxctl.md.
QSet<QString> documentedCommands(const QString &path, const QRegularExpression &heading)
{
    QSet<QString> commands;
    for (const QString &line : readLines(path)) {
        const QRegularExpressionMatch match = heading.match(line);
        if (match.hasMatch())
            commands.insert(match.captured(1));
    }
    return commands;
}

QString sorted(const QSet<QString> &names)
{
    QStringList list(names.cbegin(), names.cend());
    list.sort();
    return QStringLiteral("--") + list.join(QStringLiteral(", --"));
}

} // namespace

class TestCliReference : public QObject
{
    Q_OBJECT

private slots:
    // The readers find what is plainly there, so an empty result below means a real gap.
    void readersFindKnownOptions()
    {
        const QStringList commands = listedCommands();
        QVERIFY2(commands.size() >= 16, qPrintable(commands.join(QLatin1Char(' '))));
        QVERIFY(commands.contains(QStringLiteral("check")));
        QVERIFY(!commands.contains(QStringLiteral("h")));
        const QSet<QString> check = helpOptions(QStringLiteral("check"));
        QVERIFY(check.contains(QStringLiteral("db")));
        QVERIFY(check.contains(QStringLiteral("max-dead")));
        QVERIFY(!check.contains(Help));
        QCOMPARE(optionNames(QStringLiteral("--web.config.file FILE, see --config.")),
            (QSet<QString> {QStringLiteral("web.config.file"), QStringLiteral("config")}));
        QVERIFY(helpOptions(QStringLiteral("serve")).contains(QStringLiteral("web.config.file")));
        QCOMPARE(manOptions(QStringLiteral("init")).value_or(QSet<QString>()),
            (QSet<QString> {QStringLiteral("db"), QStringLiteral("for-simulation")}));
        QCOMPARE(markdownOptions(QStringLiteral("init")).value_or(QSet<QString>()),
            (QSet<QString> {QStringLiteral("db"), QStringLiteral("for-simulation")}));
        QVERIFY(!manOptions(QStringLiteral("no-such-command")).has_value());
        QVERIFY(!markdownOptions(QStringLiteral("no-such-command")).has_value());
    }

    // Each command of the table has a section in both documents, and no section names a
    // command the program does not have.
    void documentedCommandsAreTheTable()
    {
        const QStringList listed = listedCommands();
        const QSet<QString> commands(listed.cbegin(), listed.cend());
        QVERIFY(commands.size() >= 16);
        const QSet<QString> man = documentedCommands(
            Source + u"/resources/man/outboxctl.1"_qs, QRegularExpression(u"^\\.SS \"([a-z]+)"_qs));
        const QSet<QString> markdown = documentedCommands(
            Source + u"/docs/outboxctl.md"_qs, QRegularExpression(u"^## outboxctl ([a-z]+)$"_qs));
        QVERIFY2(man == commands,
            qPrintable(u"man page: "_qs + sorted(man - commands) + u" | missing: "_qs
                + sorted(commands - man)));
        QVERIFY2(markdown == commands,
            qPrintable(u"docs/outboxctl.md: "_qs + sorted(markdown - commands)
                + u" | missing: "_qs + sorted(commands - markdown)));
    }

    // The man page that ships (written at build time) lists exactly the commands and summaries
    // of `outboxctl --help`, in its order: both come from the table of commands.
    void shippedManPageListsTheTable()
    {
        const QString builtPath = qEnvironmentVariable("OUTBOX_MAN_PAGE");
        QVERIFY2(QFile::exists(builtPath), "$OUTBOX_MAN_PAGE: no man page built");
        const QStringList source = readLines(Source + u"/resources/man/outboxctl.1"_qs);
        QString why;
        const QStringList list = builtManList(source, readLines(builtPath), &why);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        const QStringList listed = listedSummaries();
        QVERIFY(listed.size() >= 16);
        QCOMPARE(list, listed);
    }

    void everyOptionIsDocumentedOnce_data()
    {
        QTest::addColumn<QString>("command");
        const QStringList commands = listedCommands();
        for (const QString &command : commands)
            QTest::addRow("%s", qPrintable(command)) << command;
        if (commands.isEmpty()) // a row that fails, rather than no rows at all
            QTest::addRow("no command listed") << QString();
    }
    void everyOptionIsDocumentedOnce()
    {
        QFETCH(QString, command);
        QVERIFY2(!command.isEmpty(), "`outboxctl --help` lists no command ($OUTBOXCTL unset?)");
        const QSet<QString> code = helpOptions(command);
        QVERIFY2(!code.isEmpty(), "outboxctl COMMAND --help lists no option");
        const std::optional<QSet<QString>> man = manOptions(command);
        QVERIFY2(man, "no .SS section in resources/man/outboxctl.1");
        const std::optional<QSet<QString>> markdown = markdownOptions(command);
        QVERIFY2(markdown, "no '## outboxctl COMMAND' section in docs/outboxctl.md");

        QVERIFY2((code - *man).isEmpty(),
            qPrintable(QStringLiteral("the man page lacks ") + sorted(code - *man)));
        QVERIFY2((*man - code).isEmpty(),
            qPrintable(QStringLiteral("the man page documents options the command does not have: ")
                + sorted(*man - code)));
        QVERIFY2((code - *markdown).isEmpty(),
            qPrintable(QStringLiteral("docs/outboxctl.md lacks ") + sorted(code - *markdown)));
        QVERIFY2((*markdown - code).isEmpty(),
            qPrintable(
                QStringLiteral("docs/outboxctl.md documents options the command does not have: ")
                + sorted(*markdown - code)));
    }
};

OUTBOX_TEST_MAIN(TestCliReference, QCoreApplication)
#include "tst_cli_reference.moc"
