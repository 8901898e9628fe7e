// One event's attempt history as a timeline: per attempt a marker at its claim, a segment to
// its end coloured by outcome, and for a retry a dashed wait up to the next due time. Read
// from an AttemptModel and rebuilt whenever the model resets or grows.
#pragma once

#include "attemptmodel.h"

#include <QChartView>
#include <QList>
#include <QPointer>
#include <optional>

class QCategoryAxis;
class QValueAxis;
class QXYSeries;

class RetryTimeline : public QChartView
{
    Q_OBJECT
public:
    explicit RetryTimeline(QWidget *parent = nullptr);

    // The model is owned elsewhere; null shows the empty state.
    void setModel(AttemptModel *model);
    AttemptModel *model() const { return m_model; }
    QValueAxis *timeAxis() const { return m_timeAxis; }

    // The time axis for attempts spanning `low`..`high` (from the first claim, in ms or
    // logical units): starts at or below `low` (never before 0 when low is 0), at least
    // `minSpan` wide, on round ticks (1, 2 or 5 times a power of ten) with the unit the axis
    // is labelled in (ms, s, min or units) and the divisor that turns stored times into it.
    static constexpr qint64 SecondsFromMs = 10 * 1000; // spans from here read in s
    static constexpr qint64 MinutesFromMs = 10 * 60 * 1000; // and from here in min
    struct AxisRange
    {
        qreal min = 0;
        qreal max = 0;
        int tickCount = 2;
        qreal divisor = 1;
        QString unit;
    };
    static AxisRange axisRange(qint64 low, qint64 high, bool logical);

private:
    struct Attempt
    {
        int number = 0;
        qint64 claimedAt = 0;
        std::optional<qint64> finishedAt;
        QString outcome; // empty while in flight
        std::optional<qint64> nextAttemptAt;
    };

    QList<Attempt> readAttempts() const;
    void rebuild();
    void showEmpty(const QString &message);
    void describe(const QList<Attempt> &attempts);
    void addSeries(QXYSeries *series, const QList<QPointF> &points);
    void addAttemptSeries(const QList<Attempt> &attempts, qint64 origin);
    void updateTimeAxis(const QList<Attempt> &attempts, qint64 origin);
    void updateAttemptAxis(const QList<Attempt> &attempts);
    void hideRepeatedLegendMarkers();

    QPointer<AttemptModel> m_model;
    qreal m_divisor = 1; // stored times to the axis's unit
    QValueAxis *m_timeAxis = nullptr;
    QCategoryAxis *m_attemptAxis = nullptr;
};
