#include "cdctiles.h"

#include "bytetext.h"
#include "cdcslotaspects.h"
#include "elidinglabel.h"
#include "healthtiles.h"
#include "tileframe.h"
#include "timeformat.h"

#include <QEvent>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>

namespace {

using Aspect = CdcSlotAspects::Aspect;

// What one tile shows of a reading: its figure, the line under it, its tooltip and grade.
struct Face
{
    QString value;
    QString hint;
    QString toolTip;
    CdcSlotGrade grade;
};

QString estimated(const CdcSlotReading &reading)
{
    return reading.rateFromAverage ? CdcTiles::tr("estimate from the server's average WAL rate")
                                   : CdcTiles::tr("estimate from the WAL rate between snapshots");
}

Face consumer(const CdcSlotReading &r)
{
    if (!r.exists)
        return {CdcTiles::tr("missing"), CdcTiles::tr("slot missing"), r.missingText(), {}};
    if (r.active)
        return {CdcTiles::tr("active"),
            r.activePid ? CdcTiles::tr("reading (pid %1)").arg(*r.activePid)
                        : CdcTiles::tr("reading"),
            CdcTiles::tr("A client (the connector) is connected to the slot"), {}};
    return {CdcTiles::tr("inactive"),
        r.inactiveForMs ? CdcTiles::tr("for %1").arg(TimeFormat::ageInTwoUnits(*r.inactiveForMs))
                        : CdcTiles::tr("since when not known yet"),
        CdcTiles::tr("No client reads the slot: it keeps every WAL segment from here on"), {}};
}

Face lag(const CdcSlotReading &r)
{
    if (!r.lagBytes)
        return {QStringLiteral("—"), CdcTiles::tr("no consumer position"), {}, {}};
    const QString tip = CdcTiles::tr("confirmed_flush_lsn behind the current WAL position");
    if (!r.lagEstimateMs)
        return {ByteText::format(*r.lagBytes), CdcTiles::tr("behind the current WAL"), tip, {}};
    return {ByteText::format(*r.lagBytes),
        CdcTiles::tr("≈ %1 behind (estimate)").arg(TimeFormat::age(*r.lagEstimateMs)),
        tip + u'\n' + estimated(r), {}};
}

Face retained(const CdcSlotReading &r)
{
    if (!r.retainedBytes)
        return {QStringLiteral("—"), CdcTiles::tr("none kept"), {}, {}};
    return {ByteText::format(*r.retainedBytes), CdcTiles::tr("WAL kept for the slot"),
        CdcTiles::tr(
            "The WAL from restart_lsn on, kept from removal until the consumer confirms it"),
        {}};
}

Face runway(const CdcSlotReading &r)
{
    if (!r.exists || r.walStatus == u"lost"_qs)
        return {QStringLiteral("—"), CdcTiles::tr("no WAL kept"), {}, {}};
    if (!r.maxSlotWalKeepBytes)
        return {CdcTiles::tr("unlimited"), CdcTiles::tr("until the disk fills"),
            CdcTiles::tr("max_slot_wal_keep_size is -1: nothing caps the WAL the slot keeps, and "
                         "the disk's free space is not known to SQL"),
            {}};
    const QString cap = CdcTiles::tr("max_slot_wal_keep_size is %1")
                            .arg(ByteText::format(*r.maxSlotWalKeepBytes));
    if (r.runwayMs)
        return {QStringLiteral("≈ ") + TimeFormat::age(*r.runwayMs),
            CdcTiles::tr("until max_slot_wal_keep_size"),
            cap + u'\n'
                + CdcTiles::tr("Estimated: safe_wal_size at the WAL rate (%1)").arg(estimated(r)),
            {}};
    const QString left
        = r.safeWalSizeBytes ? ByteText::format(*r.safeWalSizeBytes) : QStringLiteral("—");
    return {left, CdcTiles::tr("left before the limit"),
        cap + u'\n' + CdcTiles::tr("No WAL rate yet for a time"), {}};
}

Face walStatus(const CdcSlotReading &r)
{
    if (!r.exists)
        return {QStringLiteral("—"), QString(), {}, {}};
    const QString status = r.walStatus;
    const QString hint = status == u"reserved"_qs ? CdcTiles::tr("within max_wal_size")
        : status == u"extended"_qs                ? CdcTiles::tr("beyond max_wal_size, kept")
        : status == u"unreserved"_qs              ? CdcTiles::tr("removed at a checkpoint")
        : status == u"lost"_qs                    ? CdcTiles::tr("connector must re-snapshot")
                                                  : QString();
    return {status, hint, CdcTiles::tr("pg_replication_slots.wal_status"), {}};
}

CdcTiles::Level levelOf(HealthGrade::Level level)
{
    return level == HealthGrade::Level::Red  ? CdcTiles::Level::Red
        : level == HealthGrade::Level::Amber ? CdcTiles::Level::Amber
                                             : CdcTiles::Level::Normal;
}

ThemeColours::TileLevel themeLevel(CdcTiles::Level level, bool stale)
{
    if (stale)
        return ThemeColours::TileLevel::Stale;
    return level == CdcTiles::Level::Red  ? ThemeColours::TileLevel::Red
        : level == CdcTiles::Level::Amber ? ThemeColours::TileLevel::Amber
                                          : ThemeColours::TileLevel::Normal;
}

} // namespace

CdcTiles::CdcTiles(const QString &slot, QWidget *parent)
    : QWidget(parent)
    , m_slot(slot)
{
    setAccessibleName(tr("Replication slot tiles"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    addTile(tr("Consumer · slot %1").arg(slot));
    addTile(tr("Lag"));
    addTile(tr("Retained WAL"));
    addTile(tr("Runway"));
    addTile(tr("WAL status"));
    updateAll();
}

void CdcTiles::addTile(const QString &title)
{
    TileWidgets widgets;
    widgets.frame = new QFrame;
    widgets.frame->setObjectName(QStringLiteral("cdcTile"));
    // A slot's name may be 63 characters long: the title gives way, whole in its tooltip.
    widgets.title = new ElidingLabel(60);
    widgets.title->setText(title);
    widgets.title->setToolTip(title);
    widgets.title->setTextFormat(Qt::PlainText); // the slot's name, never markup
    widgets.value = new QLabel;
    widgets.hint = new QLabel;
    widgets.hint->setTextFormat(Qt::PlainText);
    stackTileLines(widgets.frame, widgets.title, widgets.value, widgets.hint);
    layout()->addWidget(widgets.frame);
    m_tiles.append(widgets);
    restyle(m_tiles.last());
}

void CdcTiles::setSnapshot(const HealthSnapshot &snapshot, const TileThresholds &thresholds)
{
    m_reading = snapshot.cdc;
    m_thresholds = thresholds;
    updateAll();
}

void CdcTiles::setStale(bool stale, const QDateTime &since)
{
    m_stale = stale;
    m_staleSince = since;
    updateAll();
}

void CdcTiles::updateAll()
{
    if (!m_reading) {
        for (int i = 0; i < m_tiles.size(); ++i)
            show(Tile(i), QStringLiteral("—"), tr("no figures yet"), {}, Level::Normal);
        return;
    }
    const CdcSlotReading &r = *m_reading;
    const auto graded = [&](Tile tile, Face face, std::optional<Aspect> aspect) {
        if (aspect)
            face.grade = CdcSlotAspects::grade(r, *aspect, m_thresholds);
        const QString tip
            = face.grade.figure.isEmpty() ? face.toolTip : face.grade.figure + u'\n' + face.toolTip;
        show(tile, face.value, face.hint, tip.trimmed(), levelOf(face.grade.level));
    };
    graded(Tile::Consumer, consumer(r), Aspect::Consumer);
    graded(Tile::Lag, lag(r), Aspect::Lag);
    graded(Tile::Retained, retained(r), std::nullopt);
    graded(Tile::Runway, runway(r), Aspect::Runway);
    graded(Tile::WalStatus, walStatus(r), Aspect::WalStatus);
}

void CdcTiles::show(
    Tile tile, const QString &value, const QString &hint, const QString &toolTip, Level level)
{
    TileWidgets &widgets = m_tiles[int(tile)];
    widgets.value->setText(value);
    widgets.hint->setText(m_stale ? (m_staleSince.isValid()
                                  ? tr("stale since %1").arg(m_staleSince.toString(u"HH:mm:ss"_qs))
                                  : tr("no figures yet"))
                                  : hint);
    widgets.frame->setToolTip(toolTip);
    widgets.frame->setAccessibleName(widgets.title->text());
    widgets.frame->setAccessibleDescription(
        QStringList({value, widgets.hint->text(), toolTip}).join(u"; "_qs));
    // Restyling re-polishes the tile, so only a change does it.
    if (widgets.level != level || widgets.stale != m_stale
        || widgets.frame->styleSheet().isEmpty()) {
        widgets.level = level;
        restyle(widgets);
    }
}

void CdcTiles::restyle(TileWidgets &widgets)
{
    widgets.stale = m_stale;
    widgets.frame->setStyleSheet(
        HealthTiles::styleSheet(ThemeColours::tile(themeLevel(widgets.level, m_stale)),
            palette().color(QPalette::Highlight), widgets.frame->objectName()));
}

void CdcTiles::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange)
        for (TileWidgets &tile : m_tiles)
            restyle(tile);
}

QString CdcTiles::titleText(Tile tile) const
{
    return m_tiles.at(int(tile)).title->text();
}

QString CdcTiles::valueText(Tile tile) const
{
    return m_tiles.at(int(tile)).value->text();
}

QString CdcTiles::hintText(Tile tile) const
{
    return m_tiles.at(int(tile)).hint->text();
}

QString CdcTiles::toolTipText(Tile tile) const
{
    return m_tiles.at(int(tile)).frame->toolTip();
}

CdcTiles::Level CdcTiles::level(Tile tile) const
{
    return m_tiles.at(int(tile)).level;
}

QWidget *CdcTiles::tileWidget(Tile tile) const
{
    return m_tiles.at(int(tile)).frame;
}
