// outboxctl errors --db URL [--profile NAME|PATH] [--now MS] [--json]: the failed events (PENDING
// after a failure, and DEAD) grouped by the signature of their last error (ErrorGroups), largest
// first, read-only. Exit 0, or 2 on any error (also a profile without last_error).
#include "cli.h"
#include "errorgroups.h"
#include "eventexplainer.h"

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
    Cli::addReportOptions(
        parser, u"The time first and last seen are told from"_qs, u"Print {\"groups\":[...]}."_qs);
    qint64 now = 0;
    int exitCode = Cli::Ok;
    const auto outbox = Cli::openReport(
        parser, u"errors"_qs, arguments,
        [&](QString *error) { return Cli::readNow(parser, &now, error); }, &exitCode);
    if (!outbox)
        return exitCode;
    QString error;
    const auto groups = ErrorGroups::read(outbox->database(), &outbox->profile, &error);
    if (!groups)
        return Cli::fail(QStringLiteral("errors: reading %1: %2").arg(outbox->name(), error));
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
    QStringList paragraphs;
    for (const ErrorGroup &group : *groups)
        paragraphs << paragraph(group, now);
    Cli::printLine(paragraphs.join(u"\n"_qs).trimmed());
    return Cli::Ok;
}
