// outboxctl errors --db URL [--profile NAME|PATH] [--json]: the failed events (PENDING after
// a failure, and DEAD) grouped by the signature of their last error (ErrorGroups), largest
// first, read-only. Exit 0, or 2 on any error (also a profile without last_error).
#include "cli.h"
#include "errorgroups.h"
#include "eventexplainer.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>

namespace {

QString seen(const std::optional<qint64> &time, qint64 now)
{
    return time ? EventExplainer::clockTime(*time, now) : u"n/a"_qs;
}

QString paragraph(const ErrorGroup &group, qint64 now)
{
    QStringList types;
    for (const QString &type : group.typesByCount())
        types
            << QStringLiteral("%1 %2").arg(Cli::printable(type)).arg(group.eventTypes.value(type));
    return QStringLiteral("%1 events (%2 DEAD), %3: %4\n  types: %5\n  first seen %6, last "
                          "seen %7\n")
        .arg(group.count)
        .arg(group.dead)
        .arg(group.category.isEmpty() ? u"no category"_qs : Cli::printable(group.category),
            Cli::printable(group.signature), types.join(u", "_qs), seen(group.firstSeen, now),
            seen(group.lastSeen, now));
}

} // namespace

int runErrors(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption({u"db"_qs, u"Database URL."_qs, u"URL"_qs});
    Cli::addProfileOption(parser);
    parser.addOption({u"json"_qs, u"Print {\"groups\":[...]}."_qs});
    int exitCode = Cli::Ok;
    if (!Cli::parse(parser, u"errors"_qs, arguments, &exitCode))
        return exitCode;
    QString error;
    if (!Cli::requireValue(parser, u"db"_qs, &error))
        return Cli::fail(u"errors: "_qs + error);
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
    const auto groups = ErrorGroups::read(connection->database(), &*profile, &error);
    if (!groups)
        return Cli::fail(
            QStringLiteral("errors: reading %1: %2").arg(url.toDisplayString(), error));
    if (parser.isSet(u"json"_qs)) {
        QJsonArray list;
        for (const ErrorGroup &group : *groups)
            list.append(group.toJson());
        Cli::printLine(QString::fromUtf8(
            QJsonDocument(QJsonObject {{u"groups"_qs, list}}).toJson(QJsonDocument::Compact)));
        return Cli::Ok;
    }
    if (groups->isEmpty()) {
        Cli::printLine(u"no failed events"_qs);
        return Cli::Ok;
    }
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QStringList paragraphs;
    for (const ErrorGroup &group : *groups)
        paragraphs << paragraph(group, now);
    Cli::printLine(paragraphs.join(u"\n"_qs).trimmed());
    return Cli::Ok;
}
