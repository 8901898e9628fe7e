// The plumbing outboxctl replay, replay --edit, resolve and reopen share, as the library's
// OperatorJob is their one path: which events (--event, or --all-dead narrowed by
// --older-than and --error-category, with replay's --error-group), who and why (--operator
// and --reason in the words of the action's audit log), and the outcome line (the events done
// and the ones skipped, with why) or the error naming what was done before it.
#pragma once

#include "cli.h"
#include "eventfilter.h"
#include "operatorjob.h"

#include <QCommandLineParser>

class Replayer;

class OperatorCommand
{
public:
    struct Spec
    {
        QString command; // "replay": the verb of the option texts and the errors' prefix
        QString done; // "replayed": the outcome's JSON key and sentence
        QString skippedBecause; // "already replayed by someone else, or not DEAD"
        OperatorWords words; // the library's: what --operator and --reason are recorded as
        bool errorGroup = false; // --error-group selects events too
        bool payloadSearch = false; // --payload-contains narrows a bulk selection
    };

    // Which events the command line names.
    struct Selection
    {
        QStringList eventIds; // --event, in order
        bool allDead = false;
        QString errorGroup; // --error-group: the signature
        bool narrowed = false; // --older-than (-ms), --error-category or --payload-contains
        EventFilter filter; // --all-dead / --error-group: which DEAD rows

        bool isBulk() const { return allDead || !errorGroup.isEmpty(); }
    };

    explicit OperatorCommand(Spec spec);

    // --event, --all-dead, (--error-group,) --older-than (old: --older-than-ms),
    // --error-category (and --payload-contains).
    void addSelectionOptions(QCommandLineParser &parser) const;
    // Exactly one of --event and the bulk options; the narrowing options need a bulk one.
    bool readSelection(
        const QCommandLineParser &parser, Selection *selection, QString *error) const;
    // --operator and --reason, required and not blank, into the request.
    bool readOperator(
        const QCommandLineParser &parser, OperatorRequest *request, QString *error) const;
    // The DEAD events a bulk selection names (the --event IDs otherwise), in *ids.
    static bool selectEvents(const Cli::Outbox &outbox, Replayer &replayer,
        const Selection &selection, qint64 now, QStringList *ids, QString *error);

    // An --event ID that names no event is refused before anything changes: exit 2 with
    // Cli::failUnknownEvents (the JSON too with `json`). Cli::Ok when every ID exists (or the
    // selection is bulk); IDs in another state than the action expects are its skipped ones.
    int refuseUnknown(const Cli::Outbox &outbox, const Selection &selection, bool json) const;

    // {"replayed":[...],"skipped":[...]} with --json, otherwise the sentence. `onHold`: the
    // events a bulk selection left out for an on-hold marker (added as "on_hold":[...] and
    // "; left out N on hold" only when there are some).
    QString outcomeLine(const QStringList &done, const QStringList &skipped, bool json,
        const QStringList &onHold = {}) const;
    // A job stopped by an error: "replay: URL: ERROR (replayed before the error: ...)" on
    // stderr, or, when its last event's COMMIT got no answer, "replay: URL: outcome unknown: ID —
    // check it: outboxctl explain ID; ..." (the rerun that settles it, then the error). With
    // `json` also the job's one JSON object on stdout, the success's keys first, "unknown" when
    // there is any, then "error". Exit 2.
    int failOutcome(const Cli::Outbox &outbox, const OperatorOutcome &outcome, bool json,
        const QStringList &onHold = {}) const;
    // A refusal or error before any event was taken: `message` as it is on stderr, and with
    // `json` the same object with nothing done ({"replayed":[],"skipped":[],"error":TEXT}).
    int fail(const QString &message, bool json) const;
    // The job's JSON object: its arrays, then "error" when `error` is not empty.
    QString outcomeJson(
        const OperatorOutcome &outcome, const QStringList &onHold, const QString &error) const;

    static QString jsonArray(const QStringList &ids);
    // `text` as a JSON string, a URL's password masked.
    static QString jsonString(const QString &text);
    static QString plural(qsizetype count) { return count == 1 ? QString() : u"s"_qs; }

private:
    Spec m_spec;
};

// What outboxctl replay is (the operator API takes the same).
const OperatorCommand &replayCommand();
