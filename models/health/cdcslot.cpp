#include "cdcslot.h"

#include "bytetext.h"
#include "queryerror.h"
#include "readonlytransaction.h"
#include "sqldialect.h"
#include "timeformat.h"

#include <QSqlQuery>
#include <QVariant>
#include <cmath>

namespace {

std::optional<qint64> optionalInteger(const QVariant &value)
{
    if (value.isNull())
        return std::nullopt;
    return value.toLongLong();
}

// One row of SqlDialect::replicationSlotSql(), in its column order.
CdcSlotReading fromRow(const QSqlQuery &row, const QString &slot)
{
    CdcSlotReading reading;
    reading.slot = slot;
    reading.exists = row.value(0).toBool();
    reading.active = row.value(1).toBool();
    reading.activePid = optionalInteger(row.value(2));
    reading.plugin = row.value(3).toString();
    reading.currentWalLsn = row.value(4).toLongLong();
    reading.lagBytes = optionalInteger(row.value(5));
    reading.retainedBytes = optionalInteger(row.value(6));
    reading.walStatus = row.value(7).toString();
    reading.safeWalSizeBytes = optionalInteger(row.value(8));
    reading.maxSlotWalKeepBytes = optionalInteger(row.value(9));
    if (!reading.active)
        reading.inactiveForMs = optionalInteger(row.value(10));
    if (!row.value(11).isNull()) {
        reading.walRateBytesPerSec = row.value(11).toDouble();
        reading.rateFromAverage = true;
    }
    const QString names = row.value(12).toString();
    if (!names.isEmpty())
        reading.existingSlots = names.split(QStringLiteral(", "));
    reading.estimate();
    return reading;
}

void consider(CdcSlotGrade *grade, HealthGrade::Level level, const QString &figure)
{
    if (level > grade->level) {
        grade->level = level;
        grade->figure = figure;
    }
}

} // namespace

QString CdcSlotReading::missingText() const
{
    const QString others = existingSlots.isEmpty()
        ? QStringLiteral("the server has none")
        : QStringLiteral("the slots on this server: ") + existingSlots.join(QStringLiteral(", "));
    return QStringLiteral("replication slot \"%1\" does not exist; %2").arg(slot, others);
}

void CdcSlotReading::estimate()
{
    lagEstimateMs.reset();
    runwayMs.reset();
    if (!walRateBytesPerSec || *walRateBytesPerSec <= 0)
        return;
    const auto msAt = [this](qint64 bytes) {
        return static_cast<qint64>(std::llround(bytes / *walRateBytesPerSec * 1000.0));
    };
    if (lagBytes)
        lagEstimateMs = msAt(qMax<qint64>(0, *lagBytes));
    if (safeWalSizeBytes)
        runwayMs = msAt(qMax<qint64>(0, *safeWalSizeBytes));
}

namespace CdcSlotQuery {

QString unsupportedText(const QSqlDatabase &db)
{
    return QStringLiteral("replication slots are PostgreSQL's; %1 has none (a CDC connector "
                          "keeps its binlog position outside the database: docs/cdc.md)")
        .arg(SqlDialect::of(db).title());
}

std::optional<CdcSlotReading> read(const QSqlDatabase &db, ReadOnlyTransaction &transaction,
    const QString &slot, qint64, QString *error)
{
    const QString sql = SqlDialect::of(db).replicationSlotSql();
    if (sql.isEmpty()) {
        *error = unsupportedText(db);
        return std::nullopt;
    }
    QSqlQuery *query = transaction.prepare(sql);
    if (!query) {
        *error = transaction.errorText();
        return std::nullopt;
    }
    query->bindValue(QStringLiteral(":slot"), slot);
    if (!query->exec() || !query->next()) {
        *error = QueryError::text(*query);
        return std::nullopt;
    }
    return fromRow(*query, slot);
}

std::optional<CdcSlotReading> read(
    const QSqlDatabase &db, const QString &slot, qint64 now, QString *error)
{
    if (SqlDialect::of(db).replicationSlotSql().isEmpty()) {
        *error = unsupportedText(db);
        return std::nullopt;
    }
    ReadOnlyTransaction transaction(db);
    if (!transaction.isActive()) {
        *error = transaction.errorText();
        return std::nullopt;
    }
    return read(db, transaction, slot, now, error);
}

} // namespace CdcSlotQuery

void CdcSlotTracker::reset()
{
    m_slot.clear();
    m_points.clear();
    m_inactiveSince.reset();
    m_sawActive = false;
}

void CdcSlotTracker::update(CdcSlotReading *reading, qint64 now)
{
    const bool walWentBack = !m_points.isEmpty() && reading->currentWalLsn < m_points.last().lsn;
    if (reading->slot != m_slot || walWentBack || !reading->exists) {
        reset(); // another slot, another server (a failover), or nothing to follow
        m_slot = reading->slot;
    }
    if (!reading->exists)
        return;
    updateRate(reading, now);
    updateInactive(reading, now);
    reading->estimate();
}

void CdcSlotTracker::updateRate(CdcSlotReading *reading, qint64 now)
{
    if (!m_points.isEmpty() && now < m_points.last().at)
        m_points.clear(); // the clock went back
    m_points.append({now, reading->currentWalLsn});
    while (m_points.size() > 2 && now - m_points.at(1).at >= RateSpanMs)
        m_points.removeFirst();
    const Point &oldest = m_points.first();
    const qint64 span = now - oldest.at;
    if (span < MinRateSpanMs)
        return; // the server's average, if any, stands
    reading->walRateBytesPerSec = (reading->currentWalLsn - oldest.lsn) * 1000.0 / span;
    reading->rateFromAverage = false;
}

void CdcSlotTracker::updateInactive(CdcSlotReading *reading, qint64 now)
{
    if (reading->active) {
        m_sawActive = true;
        m_inactiveSince.reset();
        return;
    }
    if (!m_inactiveSince)
        m_inactiveSince = now;
    if (reading->inactiveForMs)
        return; // the server's own inactive_since
    if (m_sawActive || now > *m_inactiveSince)
        reading->inactiveForMs = now - *m_inactiveSince;
}

CdcSlotGrade CdcSlotGrade::of(const CdcSlotReading &reading, const TileThresholds &thresholds)
{
    using Level = HealthGrade::Level;
    CdcSlotGrade grade;
    const QString name = reading.slot;
    if (!reading.exists) {
        consider(&grade, Level::Red, QStringLiteral("slot %1 does not exist").arg(name));
        return grade;
    }
    if (reading.walStatus == u"lost"_qs || reading.walStatus == u"unreserved"_qs)
        consider(&grade, Level::Red, QStringLiteral("slot %1 WAL %2").arg(name, reading.walStatus));
    if (!reading.active) {
        const Level level = reading.inactiveForMs
            ? HealthGrade::levelOf(*reading.inactiveForMs, thresholds.cdcInactiveMs)
            : Level::Amber;
        consider(&grade, qMax(level, Level::Amber),
            reading.inactiveForMs ? QStringLiteral("slot %1 inactive for %2")
                                        .arg(name, TimeFormat::age(*reading.inactiveForMs))
                                  : QStringLiteral("slot %1 inactive").arg(name));
    }
    if (reading.lagBytes)
        consider(&grade, HealthGrade::levelOf(*reading.lagBytes, thresholds.cdcLagBytes),
            QStringLiteral("slot %1 %2 behind").arg(name, ByteText::format(*reading.lagBytes)));
    if (reading.runwayMs && *reading.runwayMs < thresholds.cdcRunwayRedBelowMs)
        consider(&grade, Level::Red,
            QStringLiteral("slot %1 reaches max_slot_wal_keep_size in about %2 (estimate)")
                .arg(name, TimeFormat::age(*reading.runwayMs)));
    return grade;
}
