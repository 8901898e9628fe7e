// outboxctl errors --db URL [--profile NAME|PATH] [--now MS] [--json]: the failed events (PENDING
// after a failure, and DEAD) grouped by the signature of their last error (ErrorGroups), largest
// first, read-only, as the window's Errors page shows them: the DEAD and retrying counts, first
// and last seen, the group's note and marker, and its key as --error-group takes it. Exit 0, or
// 2 on any error (also a profile without last_error).
#include "cli.h"
#include "errorgroups.h"
#include "eventexplainer.h"
#include "numbertext.h"
#include "plaintext.h"
#include "timeformat.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace {

// "09:02:55 (3 min ago)": the clock time, and the age the Errors page shows.
QString seen(const std::optional<qint64> &time, qint64 now)
{
    if (!time)
        return u"n/a"_qs;
    return QStringLiteral("%1 (%2)").arg(
        EventExplainer::clockTime(*time, now), TimeFormat::relative(*time, now));
}

// "ON-HOLD by alice: do not replay until the fix deploys", as the Errors page's Note column.
QString noteLine(const ErrorGroup &group)
{
    if (group.note.isEmpty() && group.marker.isEmpty())
        return {};
    QString line = u"  note: "_qs;
    if (!group.marker.isEmpty())
        line += group.markerText() + u" "_qs;
    line += u"by "_qs + Cli::printable(group.noteBy);
    if (!group.note.isEmpty())
        line += u": "_qs + Cli::printable(group.note);
    return line + u"\n"_qs;
}

// One group as the Errors page shows it, with its key written as --error-group takes it.
QString paragraph(const ErrorGroup &group, qint64 now)
{
    QStringList types;
    for (const QString &type : group.typesByCount())
        types << QStringLiteral("%1 %2").arg(
            Cli::printable(type), NumberText::count(group.eventTypes.value(type)));
    return QStringLiteral("%1: %2 %3 (%4 DEAD, %5 retrying), %6\n  --error-group %7\n"
                          "  types: %8\n  first seen %9, last seen %10\n")
               .arg(Cli::printable(group.signature), NumberText::count(group.count),
                   group.count == 1 ? u"event"_qs : u"events"_qs, NumberText::count(group.dead),
                   NumberText::count(group.retrying()),
                   group.category.isEmpty() ? u"no category"_qs : Cli::printable(group.category),
                   Cli::printable(PlainText::shellQuoted(group.signature)), types.join(u", "_qs),
                   seen(group.firstSeen, now))
               .arg(seen(group.lastSeen, now))
        + noteLine(group);
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
    auto groups = ErrorGroups::read(outbox->database(), &outbox->profile, &error);
    if (!groups)
        return Cli::fail(QStringLiteral("errors: reading %1: %2").arg(outbox->name(), error));
    ErrorGroups::addNotes(outbox->database(), &outbox->profile, &*groups);
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
