// The row of health tiles at the top of the dashboard: one big number per derived state,
// with a hint saying what it means, turning amber or red when a display threshold is reached.
#pragma once

#include "healthsnapshot.h"
#include "tilethresholds.h"

#include "themecolours.h"
#include <QDateTime>
#include <QList>

#include <QWidget>

class QFrame;
class QLabel;

class HealthTiles : public QWidget
{
    Q_OBJECT
public:
    enum class Tile {
        Due,
        Scheduled,
        InFlight,
        LeaseExpired,
        Delivered,
        Dead,
        Resolved,
        OldestPending
    };
    enum class Level { Normal, Amber, Red };

    explicit HealthTiles(QWidget *parent = nullptr);

    void setSnapshot(const HealthSnapshot &snapshot);
    void setThresholds(const TileThresholds &thresholds);
    // How many DEAD events an operator's marker covers (the diagnosis result's onHold and
    // investigating; negative: not known): the DEAD tile then reads "12 DEAD (9 on hold)" —
    // "(9 on hold)" under its figure and the whole sentence in its tooltip.
    void setAcknowledged(qint64 onHold, qint64 investigating);
    // "12 DEAD (9 on hold)", or "12 DEAD" (OperatorNotes::deadText); empty without figures.
    QString deadText() const;
    // Stale figures are greyed and say since when ("stale since 12:01:02"), or, with no time
    // (there never were figures), "no figures yet"; a new snapshot does not end it,
    // setStale(false) does.
    void setStale(bool stale, const QDateTime &since = {});
    bool isStale() const { return m_stale; }
    const TileThresholds &thresholds() const { return m_thresholds; }

    QString valueText(Tile tile) const;
    QString hintText(Tile tile) const; // the small line under the value
    QString toolTipText(Tile tile) const;
    // What a screen reader says of the tile: its figure against its limits ("12 DEAD events, red
    // (amber from 1, red from 10); need an operator"), kept with the figures.
    QString summaryText(Tile tile) const;
    Level level(Tile tile) const;
    ThemeColours::Tile colours(Tile tile) const { return widgets(tile).colours; }
    // The connection's environment (e.g. PRODUCTION in red) as a badge before the tiles;
    // an empty name shows none.
    void setEnvironment(const QString &name, const QColor &colour);
    QLabel *environmentBadge() const { return m_badge; }
    QWidget *tileWidget(Tile tile) const;
    // A tile's look in `colours` (a QFrame named `objectName` holding QLabels named tileTitle,
    // tileValue and tileHint), its focus border in `focus`: the CDC row's tiles look the same.
    static QString styleSheet(
        const ThemeColours::Tile &colours, const QColor &focus, const QString &objectName);

signals:
    void tileClicked(HealthTiles::Tile tile); // a tile is also a filter: its events

protected:
    void changeEvent(QEvent *event) override; // a new palette restyles the tiles
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct TileWidgets
    {
        QFrame *frame = nullptr;
        QLabel *title = nullptr;
        QLabel *value = nullptr;
        QLabel *hint = nullptr;
        QString name; // the title, for the accessible name
        Level level = Level::Normal;
        bool stale = false;
        ThemeColours::Tile colours;
    };

    void addTile(Tile tile, const QString &title);
    void updateValues();
    void updateHints();
    void updateLevels();
    void applyLevel(TileWidgets &widgets, Level level);
    void updateAccessibility();
    QString figureText(Tile tile) const;
    QString limitText(Tile tile) const;
    qint64 m_onHold = -1;
    qint64 m_investigating = -1;
    QString formatValue(Tile tile) const;
    bool resolvedKnown() const;
    Level levelFor(Tile tile) const;
    const TileWidgets &widgets(Tile tile) const { return m_tiles.at(int(tile)); }

    QList<TileWidgets> m_tiles; // in Tile order
    TileThresholds m_thresholds;
    HealthSnapshot m_snapshot;
    bool m_hasSnapshot = false;
    bool m_stale = false;
    QDateTime m_staleSince;
    QLabel *m_badge = nullptr;
    bool m_restyling = false;
};
