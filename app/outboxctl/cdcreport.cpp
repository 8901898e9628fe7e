#include "cdcreport.h"

#include "bytetext.h"
#include "cli.h"
#include "outboxprofile.h"
#include "timeformat.h"

namespace {

const QString SlotOption = QStringLiteral("cdc-slot");
const QString LagOption = QStringLiteral("max-cdc-lag");
const QString InactiveOption = QStringLiteral("max-cdc-inactive");

QString bytesOr(std::optional<qint64> bytes, const QString &otherwise)
{
    return bytes ? ByteText::format(*bytes) : otherwise;
}

// ", about 3 h 5 min behind (estimate)": a time from the WAL rate, or nothing without a rate.
QString estimate(std::optional<qint64> ms, const QString &what)
{
    return ms ? QStringLiteral(", about %1 %2 (estimate)").arg(TimeFormat::ageInTwoUnits(*ms), what)
              : QString();
}

QString stateLine(const CdcSlotReading &slot)
{
    QString state;
    if (slot.active)
        state = slot.activePid ? QStringLiteral("active (pid %1)").arg(*slot.activePid)
                               : QStringLiteral("active");
    else if (slot.inactiveForMs)
        state
            = QStringLiteral("INACTIVE for %1").arg(TimeFormat::ageInTwoUnits(*slot.inactiveForMs));
    else
        state = QStringLiteral("INACTIVE (since when is not known before PostgreSQL 17)");
    const QString plugin = slot.plugin.isEmpty() ? QString() : QStringLiteral(", ") + slot.plugin;
    return QStringLiteral("cdc:      slot %1 %2%3\n")
        .arg(Cli::printable(slot.slot), state, Cli::printable(plugin));
}

// "lag 2.1 GiB, about 3 h behind (estimate); retained 2.3 GiB; wal_status reserved; ..."
QString walLine(const CdcSlotReading &slot)
{
    const QString rate = slot.walRateBytesPerSec
        ? QStringLiteral("%1/s%2").arg(ByteText::format(qRound64(*slot.walRateBytesPerSec)),
            slot.rateFromAverage ? QStringLiteral(" (average since the statistics reset)")
                                 : QString())
        : QStringLiteral("n/a");
    const QString keep = slot.maxSlotWalKeepBytes
        ? QStringLiteral("safe_wal_size %1%2")
              .arg(bytesOr(slot.safeWalSizeBytes, QStringLiteral("n/a")),
                  estimate(slot.runwayMs, QStringLiteral("to max_slot_wal_keep_size")))
        : QStringLiteral("max_slot_wal_keep_size unlimited (the disk is the limit)");
    return QStringLiteral("          lag %1%2; retained %3; wal_status %4; %5; WAL rate %6\n")
        .arg(bytesOr(slot.lagBytes, QStringLiteral("n/a")),
            estimate(slot.lagEstimateMs, QStringLiteral("behind")),
            bytesOr(slot.retainedBytes, QStringLiteral("n/a (lost)")),
            Cli::printable(slot.walStatus), keep, rate);
}

} // namespace

namespace CdcReport {

void addSlotOption(QCommandLineParser &parser)
{
    parser.addOption({SlotOption,
        QStringLiteral("The PostgreSQL replication slot that relays the outbox (change data "
                       "capture, e.g. Debezium's 'debezium'): read without consuming it; "
                       "overrides the profile's cdc_slot."),
        QStringLiteral("NAME")});
}

void addLimitOptions(QCommandLineParser &parser)
{
    parser.addOption({LagOption,
        QStringLiteral("With a slot: unhealthy when its consumer is further behind (bytes, or "
                       "256MiB, 1GiB; default: below the tile's red 1 GiB)."),
        QStringLiteral("BYTES")});
    Cli::addDurationOption(parser, InactiveOption,
        QStringLiteral("With a slot: unhealthy when it has been inactive for longer, where that "
                       "is known (PostgreSQL 17; default: below the tile's red 5 min)."));
}

bool readSlot(
    const QCommandLineParser &parser, const OutboxProfile *profile, QString *slot, QString *error)
{
    const QString given = parser.isSet(SlotOption) ? parser.value(SlotOption) : QString();
    *slot = profile ? OutboxProfile::cdcSlotFor(given, *profile) : given;
    if (parser.isSet(SlotOption)) {
        const QString problem = OutboxProfile::cdcSlotProblem(*slot);
        if (!problem.isEmpty()) {
            *error = QStringLiteral("--%1: ").arg(SlotOption) + problem;
            return false;
        }
    }
    for (const QString &option : {LagOption, InactiveOption}) {
        if (profile && slot->isEmpty() && Cli::isDurationSet(parser, option)) {
            *error = QStringLiteral("%1 needs a replication slot: --cdc-slot NAME, or cdc_slot "
                                    "in the profile")
                         .arg(Cli::durationSpelling(parser, option));
            return false;
        }
    }
    return true;
}

bool readLimits(const QCommandLineParser &parser, HealthThresholds *thresholds, QString *error)
{
    qint64 inactive = -1;
    if (!Cli::readDuration(parser, InactiveOption, 0, Cli::MaxTimeMs, &inactive, error))
        return false;
    if (inactive >= 0)
        thresholds->maxCdcInactiveMs = inactive;
    if (!parser.isSet(LagOption))
        return true;
    const std::optional<qint64> lag = ByteText::parse(parser.value(LagOption));
    if (!lag) {
        *error = QStringLiteral("--%1 must be a size such as 1048576, 256MiB or 1GiB, not '%2'")
                     .arg(LagOption, parser.value(LagOption));
        return false;
    }
    thresholds->maxCdcLagBytes = *lag;
    return true;
}

QString lines(const CdcSlotReading &slot)
{
    return stateLine(slot) + walLine(slot);
}

} // namespace CdcReport
