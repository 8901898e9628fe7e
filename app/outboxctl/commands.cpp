#include "commands.h"

int runInit(const QStringList &arguments);
int runSimulate(const QStringList &arguments);
int runCheck(const QStringList &arguments);
int runRelay(const QStringList &arguments);
int runReplay(const QStringList &arguments);
int runGenerate(const QStringList &arguments);
int runExport(const QStringList &arguments);
int runResolve(const QStringList &arguments);
int runReopen(const QStringList &arguments);
int runNote(QStringList arguments);
int runMigrate(const QStringList &arguments);
int runPurge(const QStringList &arguments);
int runDiagnose(const QStringList &arguments);
int runExplain(const QStringList &arguments);
int runErrors(const QStringList &arguments);
int runMetrics(const QStringList &arguments);
int runPolicy(const QStringList &arguments);
int runServe(const QStringList &arguments);

namespace Cli {

namespace {

// The commands that make, fill or change an outbox come first, then those that only read one.
const QList<Command> table = {
    {u"init"_qs, u"create the native schema where it is absent"_qs, {},
        u"  outboxctl init --db postgresql://admin@db.internal/shop\n"
        "  outboxctl init --db sqlite:/tmp/sim.sqlite --for-simulation\n"_qs,
        runInit},
    {u"simulate"_qs, u"run a seed scenario on the logical clock and narrate or trace it"_qs, {},
        u"  outboxctl simulate --db sqlite:/tmp/sim.sqlite --scenario lost-ack\n"
        "  outboxctl simulate --db sqlite:/tmp/sim.sqlite --scenario retry-schedule --json\n"
        "  outboxctl simulate --db sqlite:/tmp/storm.sqlite --scenario outage-storm\n"_qs,
        runSimulate},
    {u"check"_qs, u"print the health snapshot; exit 1 when a limit is exceeded"_qs, {},
        u"  outboxctl check --db postgresql://monitor@db.internal/shop\n"
        "  outboxctl check --db sqlite:/var/lib/shop/outbox.sqlite --json --max-dead 0\n"
        "  outboxctl check --db postgresql://db.internal/jobs --profile pg-boss "
        "--max-oldest-pending 1m\n"
        "  outboxctl check --db postgresql://monitor@db.internal/orders --profile debezium "
        "--cdc-slot debezium --max-cdc-lag 512MiB\n"_qs,
        runCheck},
    {u"relay"_qs, u"run the live simulated relay with injected faults"_qs, {},
        u"  outboxctl relay --db sqlite:/tmp/relay.sqlite --produce 2000 --workers 2\n"
        "  outboxctl relay --db sqlite:/tmp/relay.sqlite --produce 500 --fail-rate 0.2 "
        "--lost-ack-rate 0.1 --budget 5\n"
        "  outboxctl relay --db postgresql://sim@localhost/relay --produce 10000 --workers 4 "
        "--give-up-after 2m\n"_qs,
        runRelay},
    {u"replay"_qs, u"release DEAD events for another delivery, recording who and why"_qs, {},
        u"  outboxctl replay --db sqlite:/tmp/sim.sqlite --event EVENT-9 --operator alice "
        "--reason \"consumer fixed\"\n"
        "  outboxctl replay --db postgresql://ops@db.internal/shop --all-dead "
        "--error-category TRANSIENT --operator bob --reason \"broker back\" --spread 1m\n"
        "  outboxctl replay --db postgresql://ops@db.internal/shop --event ORDER-17 --operator "
        "carol --reason \"schema fixed\" --reset-budget --json\n"
        "  outboxctl replay --db postgresql://ops@db.internal/shop --error-group \"HTTP <n> "
        "from inventory\" --dry-run --spread 1m\n"_qs,
        runReplay},
    {u"generate"_qs, u"fill a simulation database with a realistic synthetic outbox"_qs, {},
        u"  outboxctl generate --db sqlite:/tmp/big.sqlite --events 25000\n"
        "  outboxctl generate --db postgresql://db.internal/scratch --events 2000000 --seed 7\n"_qs,
        runGenerate},
    {u"export"_qs, u"write the events, or the replay log, as spreadsheet-safe CSV"_qs, {},
        u"  outboxctl export --db sqlite:/var/lib/shop/outbox.sqlite --state dead --output "
        u"dead.csv\n"
        "  outboxctl export --db postgresql://ops@db.internal/shop --audit > replays.csv\n"_qs,
        runExport},
    {u"resolve"_qs, u"close DEAD events without delivering them, recording who and why"_qs, {},
        u"  outboxctl resolve --db sqlite:/tmp/sim.sqlite --event EVENT-9 --operator alice "
        "--reason \"order cancelled\"\n"
        "  outboxctl resolve --db postgresql://ops@db.internal/shop --all-dead "
        "--error-category PERMANENT --operator bob --reason \"obsolete v1 events\" --dry-run\n"_qs,
        runResolve},
    {u"reopen"_qs, u"put RESOLVED events back to DEAD, recording who and why"_qs, {},
        u"  outboxctl reopen --db sqlite:/tmp/sim.sqlite --event EVENT-9 --operator alice "
        "--reason \"resolved by mistake\"\n"
        "  outboxctl reopen --db postgresql://ops@db.internal/shop --event ORDER-17 --event "
        "ORDER-18 --operator bob --reason \"customer re-ordered\" --dry-run --json\n"_qs,
        runReopen},
    {u"note"_qs, u"add, list or clear operator notes and markers on DEAD events and groups"_qs,
        u"Add, list or clear operator notes and markers: outboxctl note add|list|clear."_qs,
        u"  outboxctl note add --db postgresql://ops@db.internal/shop --event ORDER-17 "
        "--operator alice --text \"fix deploys at 14:00, do not replay\" --marker on-hold\n"
        "  outboxctl note list --db postgresql://ops@db.internal/shop --json\n"
        "  outboxctl note clear --db postgresql://ops@db.internal/shop --event ORDER-17 "
        "--operator bob\n"_qs,
        [](const QStringList &arguments) { return runNote(arguments); }},
    {u"migrate"_qs, u"bring a database's native schema to this program's version"_qs, {},
        u"  outboxctl migrate --db postgresql://admin@db.internal/shop --dry-run\n"
        "  outboxctl migrate --db sqlite:/var/lib/shop/outbox.sqlite\n"_qs,
        runMigrate},
    {u"purge"_qs, u"delete old DELIVERED (and RESOLVED) events in short batches"_qs, {},
        u"  outboxctl purge --db postgresql://ops@db.internal/shop --delivered-older-than 7d\n"
        "  outboxctl purge --db postgresql://ops@db.internal/shop --delivered-older-than 7d "
        "--resolved-older-than 30d --dry-run\n"
        "  outboxctl purge --db sqlite:/var/lib/shop/outbox.sqlite --delivered-older-than 2h "
        "--batch 500\n"_qs,
        runPurge},
    {u"diagnose"_qs, u"say why the outbox is stuck and what to do; exit 1 on a finding"_qs,
        u"Say why the outbox is stuck and what to do; exit 1 on a warning or critical finding."_qs,
        u"  outboxctl diagnose --db postgresql://monitor@db.internal/shop\n"
        "  outboxctl diagnose --db sqlite:/var/lib/shop/outbox.sqlite --json\n"
        "  outboxctl diagnose --db postgresql://db.internal/jobs --profile pg-boss\n"_qs,
        runDiagnose},
    {u"explain"_qs, u"explain one event: where it is, why, and what happens next"_qs, {},
        u"  outboxctl explain --db postgresql://monitor@db.internal/shop --event ORDER-17\n"
        "  outboxctl explain --db sqlite:/tmp/sim.sqlite --event EVENT-9 --policy "
        "capped:10,20,40 --budget 4 --json\n"_qs,
        runExplain},
    {u"errors"_qs, u"list the failed events grouped by error signature"_qs, {},
        u"  outboxctl errors --db postgresql://monitor@db.internal/shop\n"
        "  outboxctl errors --db sqlite:/var/lib/shop/outbox.sqlite --json\n"
        "  outboxctl errors --db sqlite:/tmp/sim.sqlite --now 100\n"_qs,
        runErrors},
    {u"metrics"_qs, u"print the health snapshot as Prometheus metrics, or write a textfile"_qs,
        u"Print the health snapshot as Prometheus metrics, or write it for node_exporter."_qs,
        u"  outboxctl metrics --db postgresql://monitor@db.internal/shop --outbox shop\n"
        "  outboxctl metrics --db sqlite:/var/lib/shop/outbox.sqlite --textfile "
        "/var/lib/prometheus/node-exporter/outbox.prom\n"_qs,
        runMetrics},
    {u"policy"_qs, u"print the schedule a retry policy gives, and when it parks an event DEAD"_qs,
        {},
        u"  outboxctl policy --policy capped:10,20,40 --budget 5\n"
        "  outboxctl policy --policy exponential --budget 12 --json\n"
        "  outboxctl policy --policy exponential-random:initial=500,max=10000 --budget 6 "
        "--seed 7\n"_qs,
        runPolicy},
    {u"serve"_qs, u"serve /metrics for many outboxes to Prometheus"_qs,
        u"Serve /metrics for many outboxes to Prometheus, each read once per interval on its "
        "own thread."_qs,
        u"  outboxctl serve --outbox \"shop=postgresql://monitor@db.internal/shop\" --outbox "
        "\"jobs=postgresql://monitor@db.internal/jobs;profile=pg-boss\"\n"
        "  outboxctl serve --listen 0.0.0.0:9640 --config /etc/outbox-health/fleet.conf "
        "--interval 30\n"_qs,
        runServe},
};

} // namespace

QString Command::helpDescription() const
{
    if (!description.isEmpty())
        return description;
    return summary.at(0).toUpper() + summary.mid(1) + QLatin1Char('.');
}

const QList<Command> &commands()
{
    return table;
}

const Command *findCommand(const QString &name)
{
    for (const Command &command : table) {
        if (command.name == name)
            return &command;
    }
    return nullptr;
}

QString commandNames(const QString &lastJoin)
{
    QStringList names;
    for (const Command &command : table)
        names << command.name;
    const QString last = names.takeLast();
    return names.join(QStringLiteral(", ")) + lastJoin + last;
}

QString commandList()
{
    QString list;
    for (const Command &command : table)
        list += QStringLiteral("  ") + command.name.leftJustified(10) + command.summary
            + QLatin1Char('\n');
    return list;
}

} // namespace Cli
