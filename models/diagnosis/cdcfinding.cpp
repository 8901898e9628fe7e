#include "cdcfinding.h"

#include "bytetext.h"
#include "timeformat.h"

#include <algorithm>

namespace {

QString estimateSource(const CdcSlotReading &reading)
{
    return reading.rateFromAverage ? QStringLiteral("estimate, from the server's average WAL rate")
                                   : QStringLiteral("estimate");
}

// "slot dbz inactive for 14 min" or "slot dbz active, 1.2 GiB behind (≈ 3 min, estimate)".
QString stateClause(const CdcSlotReading &reading)
{
    if (!reading.active)
        return reading.inactiveForMs
            ? QStringLiteral("slot %1 inactive for %2")
                  .arg(reading.slot, TimeFormat::ageInTwoUnits(*reading.inactiveForMs))
            : QStringLiteral("slot %1 inactive (since when is not known yet)").arg(reading.slot);
    QString text = QStringLiteral("slot %1 active").arg(reading.slot);
    if (reading.lagBytes)
        text += QStringLiteral(", its consumer %1 behind").arg(ByteText::format(*reading.lagBytes));
    if (reading.lagEstimateMs)
        text
            += QStringLiteral(" (≈ %1, %2)")
                   .arg(TimeFormat::ageInTwoUnits(*reading.lagEstimateMs), estimateSource(reading));
    return text;
}

// How long until the retained WAL hits its cap, or that nothing caps it.
QString runwayClause(const CdcSlotReading &reading)
{
    if (reading.walStatus == u"unreserved"_qs)
        return QStringLiteral("past max_slot_wal_keep_size (wal_status unreserved): the next "
                              "checkpoint may remove WAL the slot still needs");
    if (!reading.maxSlotWalKeepBytes)
        return QStringLiteral("nothing caps it (max_slot_wal_keep_size = -1): the disk fills, "
                              "and its free space is not known to SQL");
    if (reading.runwayMs)
        return QStringLiteral("at the current WAL rate the limit is reached in about %1 (%2)")
            .arg(TimeFormat::ageInTwoUnits(*reading.runwayMs), estimateSource(reading));
    if (reading.safeWalSizeBytes)
        return QStringLiteral("%1 left before max_slot_wal_keep_size (no WAL rate known yet)")
            .arg(ByteText::format(*reading.safeWalSizeBytes));
    return {};
}

QString summaryOf(const CdcSlotReading &reading)
{
    if (!reading.exists)
        return reading.missingText();
    if (reading.walStatus == u"lost"_qs)
        return QStringLiteral("slot %1 has lost WAL (wal_status lost): the connector cannot "
                              "resume from it")
            .arg(reading.slot);
    QStringList parts {stateClause(reading)};
    if (reading.retainedBytes)
        parts << QStringLiteral("%1 retained").arg(ByteText::format(*reading.retainedBytes));
    if (const QString runway = runwayClause(reading); !runway.isEmpty())
        parts << runway;
    return parts.join(QStringLiteral(", "));
}

QString actionOf(const CdcSlotReading &reading)
{
    if (!reading.exists)
        return QStringLiteral("start the connector so that it creates its slot (it takes a new "
                              "snapshot: snapshot.mode), or name the slot it uses (--cdc-slot)");
    if (reading.walStatus == u"lost"_qs)
        return QStringLiteral("the slot has lost WAL: the connector must re-snapshot "
                              "(snapshot.mode); drop the slot and restart the connector, knowing "
                              "that the events written meanwhile are not in the stream");
    if (!reading.active)
        return QStringLiteral("restart the connector, or drop slot %1 if the connector is gone "
                              "(docs/cdc.md, Runbook), knowing that events will be lost")
            .arg(reading.slot);
    return QStringLiteral("the connector reads but falls behind: check its throughput and the "
                          "broker it writes to; the slot keeps the WAL until the connector "
                          "confirms it");
}

template <typename T>
void insertIf(QVariantMap *map, const QString &key, const std::optional<T> &value)
{
    if (value)
        map->insert(key, *value);
}

QVariantMap evidenceOf(const CdcSlotReading &reading)
{
    QVariantMap evidence {{u"slot"_qs, reading.slot}};
    if (!reading.exists)
        return evidence;
    evidence.insert(u"active"_qs, reading.active ? u"yes"_qs : u"no"_qs);
    evidence.insert(u"wal_status"_qs, reading.walStatus);
    insertIf(&evidence, u"inactive_for_ms"_qs, reading.inactiveForMs);
    insertIf(&evidence, u"lag_bytes"_qs, reading.lagBytes);
    insertIf(&evidence, u"retained_bytes"_qs, reading.retainedBytes);
    insertIf(&evidence, u"safe_wal_size_bytes"_qs, reading.safeWalSizeBytes);
    insertIf(&evidence, u"lag_ms_estimated"_qs, reading.lagEstimateMs);
    insertIf(&evidence, u"runway_ms_estimated"_qs, reading.runwayMs);
    return evidence;
}

} // namespace

namespace CdcFinding {

std::optional<Finding> of(const CdcSlotReading &reading, const TileThresholds &thresholds)
{
    const CdcSlotGrade grade = CdcSlotGrade::of(reading, thresholds);
    if (grade.level == HealthGrade::Level::Normal)
        return std::nullopt;
    Finding finding;
    finding.code = DiagnosisCode::CdcSlot;
    finding.severity = grade.level == HealthGrade::Level::Red ? Finding::Severity::Critical
                                                              : Finding::Severity::Warning;
    finding.count = 1; // one slot: the events behind it are not counted
    finding.summary = summaryOf(reading) + u'.';
    finding.evidence = evidenceOf(reading);
    finding.action = actionOf(reading);
    finding.subject = reading.slot;
    return finding;
}

bool apply(DiagnosisResult *result, const CdcSlotReading &reading, const TileThresholds &thresholds)
{
    const auto isSlot
        = [](const Finding &finding) { return finding.code == DiagnosisCode::CdcSlot; };
    const auto old = std::find_if(result->findings.cbegin(), result->findings.cend(), isSlot);
    const std::optional<Finding> finding = of(reading, thresholds);
    const bool had = old != result->findings.cend();
    const bool same = had == finding.has_value()
        && (!had
            || (old->severity == finding->severity && old->summary == finding->summary
                && old->evidence == finding->evidence));
    const bool checked = result->checked.contains(DiagnosisCode::CdcSlot);
    if (same && checked)
        return false;
    result->findings.removeIf(isSlot);
    if (finding)
        result->findings.append(*finding);
    if (!checked)
        result->checked.append(DiagnosisCode::CdcSlot);
    result->sortFindings();
    return true;
}

bool diagnoseSlot(const QSqlDatabase &db, const QString &slot, qint64 now,
    const TileThresholds &thresholds, DiagnosisResult *result, QString *error)
{
    const std::optional<CdcSlotReading> reading = CdcSlotQuery::read(db, slot, now, error);
    if (!reading)
        return false;
    apply(result, *reading, thresholds);
    return true;
}

} // namespace CdcFinding
