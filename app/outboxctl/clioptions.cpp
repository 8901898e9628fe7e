// Cli's option helpers (cli.h): adding the options commands share and reading their values.
#include "cli.h"

#include "durationtext.h"
#include "notesaccess.h"
#include "payloadsearch.h"
#include "redaction.h"

#include <QDateTime>

namespace Cli {

bool requireValue(const QCommandLineParser &parser, const QString &option, QString *error)
{
    if (parser.isSet(option) && !parser.value(option).trimmed().isEmpty())
        return true;
    *error = QStringLiteral("--%1 is required").arg(option);
    return false;
}

bool requireText(const QCommandLineParser &parser, const QString &name, const QString &why,
    QString *value, QString *error)
{
    *value = parser.value(name).trimmed();
    if (!value->isEmpty())
        return true;
    *error = QStringLiteral("--%1 is required and must not be blank: %2").arg(name, why);
    return false;
}

bool readNumber(const QCommandLineParser &parser, const QString &name, qint64 low, qint64 high,
    qint64 *value, QString *error)
{
    if (!parser.isSet(name))
        return true;
    bool ok = false;
    const qint64 number = parser.value(name).trimmed().toLongLong(&ok);
    if (!ok || number < low || number > high) {
        *error = QStringLiteral("--%1 must be a whole number from %2 to %3, not '%4'")
                     .arg(name)
                     .arg(low)
                     .arg(high)
                     .arg(parser.value(name));
        return false;
    }
    *value = number;
    return true;
}

bool readNow(const QCommandLineParser &parser, qint64 *now, QString *error)
{
    *now = QDateTime::currentMSecsSinceEpoch();
    return readNumber(parser, QStringLiteral("now"), 0, MaxTimeMs, now, error);
}

void addDurationOption(QCommandLineParser &parser, const QString &name, const QString &description)
{
    parser.addOption(
        {name, description + QStringLiteral(" As 500ms, 30s, 10m, 2h or 7d (a plain number: ms)."),
            QStringLiteral("DURATION")});
    QCommandLineOption old(name + QStringLiteral("-ms"),
        QStringLiteral("The old spelling of --%1, in whole milliseconds.").arg(name),
        QStringLiteral("N"));
    old.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(old);
}

// The names given on the command line: isSet() warns about a name the command does not have.
bool isDurationSet(const QCommandLineParser &parser, const QString &name)
{
    const QStringList given = parser.optionNames();
    return given.contains(name) || given.contains(name + QStringLiteral("-ms"));
}

QString durationSpelling(const QCommandLineParser &parser, const QString &name)
{
    const bool old = parser.optionNames().contains(name + QStringLiteral("-ms"));
    return QStringLiteral("--") + name + (old ? QStringLiteral("-ms") : QString());
}

bool readDuration(const QCommandLineParser &parser, const QString &name, qint64 low, qint64 high,
    qint64 *ms, QString *error)
{
    const QString old = name + QStringLiteral("-ms");
    if (parser.isSet(name) && parser.isSet(old)) {
        *error = QStringLiteral("--%1 and --%2 are the same option; give one").arg(name, old);
        return false;
    }
    if (parser.isSet(old)) // whole milliseconds, with the message it always had
        return readNumber(parser, old, low, high, ms, error);
    if (!parser.isSet(name))
        return true;
    const std::optional<qint64> value = DurationText::parseMs(parser.value(name));
    if (!value) {
        *error = QStringLiteral("--%1 must be a duration such as 500ms, 30s, 10m, 2h or 7d "
                                "(plain numbers are milliseconds), not '%2'")
                     .arg(name, parser.value(name));
        return false;
    }
    if (*value < low || *value > high) {
        *error = QStringLiteral("--%1 must be from %2 to %3, not '%4'")
                     .arg(name, DurationText::format(low), DurationText::format(high),
                         parser.value(name));
        return false;
    }
    *ms = *value;
    return true;
}

bool readErrorCategory(const QCommandLineParser &parser, QString *category, QString *error)
{
    category->clear();
    const QString option = QStringLiteral("error-category");
    if (!parser.isSet(option))
        return true;
    const QString value = parser.value(option).trimmed();
    for (const QString &known : {QStringLiteral("TRANSIENT"), QStringLiteral("PERMANENT")}) {
        if (value.compare(known, Qt::CaseInsensitive) == 0) {
            *category = known;
            return true;
        }
    }
    *error = QStringLiteral("--error-category must be TRANSIENT or PERMANENT, not '%1'")
                 .arg(parser.value(option));
    return false;
}

void addPayloadContainsOption(QCommandLineParser &parser, const QString &prefix)
{
    parser.addOption({u"payload-contains"_qs,
        (prefix.isEmpty() ? u"Only"_qs : prefix + u": only"_qs)
            + u" events whose payload contains this JSON fragment ({\"orderId\": 4711}: "
              "that key with that value) or, when it does not start with { or [, this text "
              "(case-insensitive; refused while payload values are redacted)."_qs,
        u"TEXT"_qs});
}

bool readPayloadContains(const QCommandLineParser &parser, QString *search, QString *error)
{
    search->clear();
    const QString option = QStringLiteral("payload-contains");
    if (!parser.isSet(option))
        return true;
    QString why;
    const PayloadSearch parsed
        = PayloadSearch::parse(parser.value(option), Redaction::dashboardSensitiveKeys(), &why);
    if (!why.isEmpty()) {
        *error = u"--payload-contains: "_qs + why;
        return false;
    }
    if (parsed.kind == PayloadSearch::Kind::None) {
        *error = u"--payload-contains needs a JSON fragment or a text"_qs;
        return false;
    }
    *search = parser.value(option).trimmed();
    return true;
}

void addProfileOption(QCommandLineParser &parser, const QString &more)
{
    const QString common
        = QStringLiteral("The outbox schema: a built-in profile (native, graphile-worker, oban, "
                         "pg-boss, solid-queue, spring-modulith, spring-modulith-2, gruelbox, "
                         "namastack, wolverine, masstransit, river, debezium) or a profile file "
                         "(default: detected).");
    parser.addOption({QStringLiteral("profile"),
        more.isEmpty() ? common : common + QLatin1Char(' ') + more, QStringLiteral("NAME|PATH")});
}

void addDatabaseOption(QCommandLineParser &parser, const QString &description)
{
    parser.addOption({QStringLiteral("db"), description, QStringLiteral("URL")});
    addDatabaseFileOption(parser);
}

void addDatabaseFileOption(QCommandLineParser &parser)
{
    parser.addOption({QStringLiteral("db-file"),
        QStringLiteral("Read the database URL from the first line of FILE instead of --db (kept "
                       "out of ps; refused when it holds a password and others may read it). "
                       "Without either, the URL in OUTBOX_DB_URL."),
        QStringLiteral("FILE")});
}
void addDatabaseOptions(QCommandLineParser &parser, const QString &profileMore)
{
    addDatabaseOption(parser);
    addProfileOption(parser, profileMore);
}

void addNotesDbOption(QCommandLineParser &parser)
{
    parser.addOption({QStringLiteral("notes-db"),
        QStringLiteral("Through a profile: the team's audit store and operator notes, a native "
                       "database of Outbox Health's own at schema version 3 (outboxctl init --db "
                       "URL makes one); a replay through a profile is refused without it. A "
                       "native outbox keeps its own."),
        QStringLiteral("URL")});
}

bool applyNotesDb(const QCommandLineParser &parser, QString *error)
{
    if (!parser.isSet(QStringLiteral("notes-db")))
        return true;
    const QString text = parser.value(QStringLiteral("notes-db")).trimmed();
    const DatabaseUrl url = DatabaseUrl::parse(text, error);
    if (!url.isValid()) {
        *error = QStringLiteral("--notes-db %1: %2").arg(text, *error);
        return false;
    }
    NotesAccess::setNotesDatabase(url);
    return true;
}
void addNowOption(QCommandLineParser &parser, const QString &when)
{
    parser.addOption({QStringLiteral("now"),
        when + QStringLiteral(", ms since the epoch (default: now)."), QStringLiteral("MS")});
}

void addJsonOption(QCommandLineParser &parser, const QString &prints)
{
    parser.addOption({QStringLiteral("json"), prints});
}

void addReportOptions(QCommandLineParser &parser, const QString &when, const QString &prints)
{
    addDatabaseOptions(parser);
    addNowOption(parser, when);
    addJsonOption(parser, prints);
}
} // namespace Cli
