// The change-data-capture path drawn left to right: the service's transaction (INSERT into the
// outbox), the WAL, the replication slot, the connector (Debezium) and the broker, each box
// with what the simulated relay shows of it now and coloured where it breaks (amber: at risk,
// red: broken); under them a bar of the WAL the slot retains against max_wal_size and
// max_slot_wal_keep_size. A click (or the arrow keys) picks a step: the page explains it.
#pragma once

#include <QRectF>
#include <QWidget>

class SimulatedCdcRelay;

class CdcPathDiagram : public QWidget
{
    Q_OBJECT
public:
    enum Step { Service, Wal, Slot, Connector, Broker, StepCount };

    explicit CdcPathDiagram(QWidget *parent = nullptr);

    void setRelay(const SimulatedCdcRelay &relay, qint64 nowMs);
    Step selected() const { return m_selected; }
    void select(Step step);
    static QString title(Step step);
    QString stateText(Step step) const { return m_states[step]; }

    QSize sizeHint() const override { return {760, 230}; }
    QSize minimumSizeHint() const override { return {560, 160}; }

signals:
    void selectedChanged(CdcPathDiagram::Step step);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    enum class Level { Normal, Amber, Red };
    void describe(const SimulatedCdcRelay &relay, qint64 nowMs);
    void grade(const SimulatedCdcRelay &relay);
    QRectF boxRect(int step) const;
    QRectF barRect() const;
    void paintBox(QPainter &painter, int step) const;
    void paintArrows(QPainter &painter) const;
    void paintBar(QPainter &painter) const;
    void updateSummary();

    QString m_states[StepCount];
    Level m_levels[StepCount] = {};
    Step m_selected = Slot;
    qint64 m_retained = 0;
    qint64 m_reservedLimit = 0; // max_wal_size
    qint64 m_keepLimit = 0; // max_slot_wal_keep_size; 0: unlimited
    Level m_barLevel = Level::Normal;
};
