// The row of tiles under the health tiles for an outbox relayed by change data capture: its
// replication slot's consumer, lag, retained WAL, runway and WAL status (HealthSnapshot::cdc,
// docs/user-guide.md, The CDC tile row). Coloured by CdcSlotGrade's one rule, figure by figure
// (CdcSlotAspects), and shown only in a window that has a slot (outbox-dashboard --cdc-slot).
#pragma once

#include "healthsnapshot.h"
#include "themecolours.h"
#include "tilethresholds.h"

#include <QDateTime>
#include <QList>
#include <QWidget>

class QFrame;
class QLabel;

class CdcTiles : public QWidget
{
    Q_OBJECT
public:
    enum class Tile { Consumer, Lag, Retained, Runway, WalStatus };
    enum class Level { Normal, Amber, Red };

    explicit CdcTiles(const QString &slot, QWidget *parent = nullptr);

    // The snapshot's slot reading (none: "no figures yet"), judged by `thresholds` (the tiles').
    void setSnapshot(const HealthSnapshot &snapshot, const TileThresholds &thresholds);
    // Stale figures are greyed, as the health tiles' are.
    void setStale(bool stale, const QDateTime &since = {});

    QString titleText(Tile tile) const;
    QString valueText(Tile tile) const;
    QString hintText(Tile tile) const;
    QString toolTipText(Tile tile) const;
    Level level(Tile tile) const;
    QWidget *tileWidget(Tile tile) const;

protected:
    void changeEvent(QEvent *event) override; // a new palette restyles the tiles

private:
    struct TileWidgets
    {
        QFrame *frame = nullptr;
        QLabel *title = nullptr;
        QLabel *value = nullptr;
        QLabel *hint = nullptr;
        Level level = Level::Normal;
        bool stale = false;
    };
    void addTile(const QString &title);
    void show(
        Tile tile, const QString &value, const QString &hint, const QString &toolTip, Level level);
    void restyle(TileWidgets &widgets);
    void updateAll();

    QString m_slot;
    QList<TileWidgets> m_tiles; // in Tile order
    std::optional<CdcSlotReading> m_reading;
    TileThresholds m_thresholds;
    bool m_stale = false;
    QDateTime m_staleSince;
};
