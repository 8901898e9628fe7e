#include "operatorcommand.h"

#include "errorgroups.h"
#include "eventlookup.h"
#include "numbertext.h"
#include "replayer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

OperatorCommand::OperatorCommand(Spec spec)
    : m_spec(std::move(spec))
{ }

void OperatorCommand::addSelectionOptions(QCommandLineParser &parser) const
{
    const QString verb = m_spec.command;
    const QString Verb = verb.left(1).toUpper() + verb.mid(1);
    const QString with
        = m_spec.errorGroup ? u"With --all-dead or --error-group"_qs : u"With --all-dead"_qs;
    parser.addOption(
        {u"event"_qs, QStringLiteral("A DEAD event to %1 (repeat for more).").arg(verb), u"ID"_qs});
    parser.addOption({u"all-dead"_qs,
        QStringLiteral("%1 every DEAD event (narrowed by the options below).").arg(Verb)});
    if (m_spec.errorGroup)
        parser.addOption({u"error-group"_qs,
            QStringLiteral("%1 the DEAD events whose last error has this signature (see "
                           "outboxctl errors).")
                .arg(Verb),
            u"SIGNATURE"_qs});
    Cli::addDurationOption(parser, u"older-than"_qs,
        with + u": only events created at least this long before --now."_qs);
    parser.addOption({u"error-category"_qs,
        with + u": only events whose last error has this category."_qs, u"C"_qs});
    if (m_spec.payloadSearch)
        Cli::addPayloadContainsOption(parser, with);
}

bool OperatorCommand::readSelection(
    const QCommandLineParser &parser, Selection *selection, QString *error) const
{
    const bool byId = parser.isSet(u"event"_qs);
    selection->allDead = parser.isSet(u"all-dead"_qs);
    if (m_spec.errorGroup) {
        selection->errorGroup = parser.value(u"error-group"_qs).trimmed();
        if (parser.isSet(u"error-group"_qs) && selection->errorGroup.isEmpty()) {
            *error = u"--error-group needs a signature (see outboxctl errors)"_qs;
            return false;
        }
    }
    const bool groups = m_spec.errorGroup;
    if (byId == selection->isBulk()) {
        *error = byId ? (groups ? u"give either --event or --all-dead / --error-group, not both"_qs
                                : u"give either --event or --all-dead, not both"_qs)
            : groups
            ? u"say which events: --event ID (repeatable), --all-dead or --error-group SIGNATURE"_qs
            : u"say which events: --event ID (repeatable) or --all-dead"_qs;
        return false;
    }
    const bool payload = m_spec.payloadSearch && parser.isSet(u"payload-contains"_qs);
    selection->narrowed = Cli::isDurationSet(parser, u"older-than"_qs)
        || parser.isSet(u"error-category"_qs) || payload;
    if (!selection->isBulk() && selection->narrowed) {
        const QString older = Cli::durationSpelling(parser, u"older-than"_qs);
        *error = QStringLiteral("%1 narrow %2; they cannot be used with --event")
                     .arg(m_spec.payloadSearch
                             ? older + u", --error-category and --payload-contains"_qs
                             : older + u" and --error-category"_qs,
                         groups ? u"--all-dead or --error-group"_qs : u"--all-dead"_qs);
        return false;
    }
    for (const QString &id : parser.values(u"event"_qs)) {
        if (id.trimmed().isEmpty()) {
            *error = u"--event needs an event ID"_qs;
            return false;
        }
        selection->eventIds << id;
    }
    qint64 olderThan = -1;
    if (!Cli::readDuration(parser, u"older-than"_qs, 0, Cli::MaxTimeMs, &olderThan, error))
        return false;
    if (olderThan >= 0)
        selection->filter.minAgeMs = olderThan;
    if (m_spec.payloadSearch
        && !Cli::readPayloadContains(parser, &selection->filter.payloadContains, error))
        return false;
    return Cli::readErrorCategory(parser, &selection->filter.errorCategory, error);
}

bool OperatorCommand::readOperator(
    const QCommandLineParser &parser, OperatorRequest *request, QString *error) const
{
    return Cli::requireText(
               parser, u"operator"_qs, m_spec.words.whoRecorded(), &request->operatorName, error)
        && Cli::requireText(
            parser, u"reason"_qs, m_spec.words.whyRecorded(), &request->reason, error);
}

bool OperatorCommand::selectEvents(const Cli::Outbox &outbox, Replayer &replayer,
    const Selection &selection, qint64 now, QStringList *ids, QString *error)
{
    *ids = selection.eventIds;
    if (!selection.isBulk())
        return true;
    ids->clear();
    if (!selection.filter.payloadContains.isEmpty()) {
        if (*error = Cli::payloadSearchRefusal(outbox.profile); !error->isEmpty())
            return false;
    }
    if (selection.allDead || selection.narrowed) {
        error->clear();
        *ids = replayer.matchingDeadEvents(selection.filter, now, error);
        if (!error->isEmpty())
            return false;
    }
    if (selection.errorGroup.isEmpty())
        return true;
    const auto group = ErrorGroups::deadEventIds(
        outbox.database(), &outbox.profile, selection.errorGroup, error);
    if (!group)
        return false;
    if (group->isEmpty()) {
        *error = QStringLiteral("no DEAD event has the error signature '%1' (outboxctl errors "
                                "lists them)")
                     .arg(selection.errorGroup);
        return false;
    }
    if (!selection.allDead && !selection.narrowed) {
        *ids = *group;
        return true;
    }
    const QSet<QString> narrowed(ids->cbegin(), ids->cend());
    ids->clear();
    for (const QString &id : *group) {
        if (narrowed.contains(id))
            *ids << id;
    }
    return true;
}

int OperatorCommand::refuseUnknown(
    const Cli::Outbox &outbox, const Selection &selection, bool json) const
{
    if (selection.isBulk())
        return Cli::Ok;
    QString error;
    const auto unknown
        = EventLookup::unknown(outbox.database(), &outbox.profile, selection.eventIds, &error);
    if (!unknown && !outbox.profile.isNative()) // read in a read-only transaction, as replay's
        return fail(QStringLiteral("%1: %2: reading the events through the profile failed "
                                   "in a read-only transaction, so nothing was %3 (a "
                                   "profile's reads must not write): %4")
                        .arg(m_spec.command, outbox.profile.name(), m_spec.done, error),
            json);
    if (!unknown)
        return fail(
            QStringLiteral("%1: reading %2: %3").arg(m_spec.command, outbox.name(), error), json);
    return unknown->isEmpty()
        ? Cli::Ok
        : Cli::failUnknownEvents(m_spec.command, *unknown, json, u"; nothing changed"_qs);
}

QString OperatorCommand::jsonArray(const QStringList &ids)
{
    return QString::fromUtf8(
        QJsonDocument(QJsonArray::fromStringList(ids)).toJson(QJsonDocument::Compact));
}

// Event IDs are stored text: escaped, so that one cannot forge a line of its own.
QString OperatorCommand::outcomeLine(
    const QStringList &done, const QStringList &skipped, bool json, const QStringList &onHold) const
{
    if (json)
        return QStringLiteral("{\"%1\":%2,\"skipped\":%3%4}")
            .arg(m_spec.done, jsonArray(done), jsonArray(skipped),
                onHold.isEmpty() ? QString() : u",\"on_hold\":"_qs + jsonArray(onHold));
    QString line = QStringLiteral("%1 %2 event%3")
                       .arg(m_spec.done, NumberText::count(done.size()), plural(done.size()));
    if (!done.isEmpty())
        line += u": "_qs + Cli::printable(done.join(u", "_qs));
    if (!skipped.isEmpty())
        line += QStringLiteral("; skipped %1 (%2): %3")
                    .arg(NumberText::count(skipped.size()))
                    .arg(m_spec.skippedBecause, Cli::printable(skipped.join(u", "_qs)));
    if (!onHold.isEmpty())
        line += QStringLiteral("; left out %1 on hold (--include-on-hold replays them): %2")
                    .arg(NumberText::count(onHold.size()))
                    .arg(Cli::printable(onHold.join(u", "_qs)));
    return line;
}

QString OperatorCommand::jsonString(const QString &text)
{
    const QString array
        = QString::fromUtf8(QJsonDocument(QJsonArray {DatabaseUrl::maskPasswords(text)})
                                .toJson(QJsonDocument::Compact));
    return array.mid(1, array.size() - 2);
}

QString OperatorCommand::outcomeJson(
    const OperatorOutcome &outcome, const QStringList &onHold, const QString &error) const
{
    QString json = outcomeLine(outcome.done, outcome.skipped, true, onHold);
    json.chop(1); // the closing brace
    if (!outcome.unknown.isEmpty())
        json += u",\"unknown\":"_qs + jsonArray(outcome.unknown);
    if (!error.isEmpty())
        json += u",\"error\":"_qs + jsonString(error);
    return json + u'}';
}

int OperatorCommand::failOutcome(const Cli::Outbox &outbox, const OperatorOutcome &outcome,
    bool json, const QStringList &onHold) const
{
    QString line = QStringLiteral("%1: %2: ").arg(m_spec.command, outbox.name());
    if (!outcome.unknown.isEmpty()) {
        const QString id = outcome.unknown.join(u", "_qs);
        line += QStringLiteral("outcome unknown: %1 — check it: outboxctl explain %1; a rerun %2s "
                               "it only if this one did not (%3)")
                    .arg(id, m_spec.command, outcome.error);
    } else {
        line += outcome.error;
    }
    if (!outcome.done.isEmpty())
        line += QStringLiteral(" (%1 before the error: %2)")
                    .arg(m_spec.done, outcome.done.join(u", "_qs));
    if (json)
        Cli::printLine(outcomeJson(outcome, onHold, line));
    return Cli::fail(line);
}

int OperatorCommand::fail(const QString &message, bool json) const
{
    if (json)
        Cli::printLine(outcomeJson({}, {}, message));
    return Cli::fail(message);
}
