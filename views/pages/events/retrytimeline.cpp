#include "retrytimeline.h"

#include "attemptmodel.h"
#include "plaintext.h"
#include "statuscolorproxy.h"
#include "themecolours.h"
#include "timeformat.h"

#include <QCategoryAxis>
#include <QChart>
#include <QGraphicsLayout>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSet>
#include <QValueAxis>
#include <cmath>

namespace {

// A lease that ran out is not something the event did, so it stays grey here.
QColor outcomeColour(const QString &outcome)
{
    if (outcome.isEmpty())
        return StatusColorProxy::colorFor(QStringLiteral("IN FLIGHT"));
    if (outcome == QLatin1String("LEASE_EXPIRED"))
        return ThemeColours::neutral();
    const QColor colour = StatusColorProxy::colorFor(outcome);
    return colour.isValid() ? colour : ThemeColours::current().color(QPalette::WindowText);
}

QColor claimColour()
{
    return ThemeColours::isDark() ? QColor(0xc9, 0xd1, 0xd9) : QColor(0x44, 0x4d, 0x56);
}

QString outcomeName(const QString &outcome)
{
    if (outcome.isEmpty())
        return RetryTimeline::tr("in flight");
    return outcome.toLower().replace(QLatin1Char('_'), QLatin1Char(' '));
}

std::optional<qint64> optionalTime(const QVariant &value)
{
    return value.isNull() ? std::nullopt : std::optional<qint64>(value.toLongLong());
}

QScatterSeries *markerSeries(
    const QString &name, QScatterSeries::MarkerShape shape, const QColor &colour, qreal size)
{
    auto *series = new QScatterSeries;
    series->setName(name);
    series->setMarkerShape(shape);
    series->setMarkerSize(size);
    series->setColor(colour);
    series->setBorderColor(colour.darker(130));
    return series;
}

QLineSeries *segmentSeries(
    const QString &name, const QColor &colour, qreal width, Qt::PenStyle style = Qt::SolidLine)
{
    auto *series = new QLineSeries;
    series->setName(name);
    series->setPen(QPen(colour, width, style, Qt::FlatCap));
    return series;
}

// A solid segment with a dot at each end: an attempt that took no time (the simulator's
// usually do) still shows its outcome's colour around the claim marker.
QLineSeries *attemptSeries(const QString &outcome)
{
    QLineSeries *series = segmentSeries(outcomeName(outcome), outcomeColour(outcome), 4);
    series->setPointsVisible(true);
    series->setMarkerSize(9);
    return series;
}

} // namespace

RetryTimeline::RetryTimeline(QWidget *parent)
    : QChartView(parent)
    , m_timeAxis(new QValueAxis)
    , m_attemptAxis(new QCategoryAxis)
{
    setAccessibleName(tr("Retry timeline"));
    setRenderHint(QPainter::Antialiasing);
    QChart *timeline = chart();
    timeline->setTheme(ThemeColours::isDark() ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    if (ThemeColours::isDark())
        timeline->setBackgroundBrush(ThemeColours::current().color(QPalette::Base));
    timeline->legend()->setAlignment(Qt::AlignBottom);
    timeline->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    // Five names under a laptop's narrow pane ("retry … next due"): a point smaller, so that
    // none is cut to "delive…".
    QFont legendFont = timeline->legend()->font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.85);
    timeline->legend()->setFont(legendFont);
    QFont titleFont = timeline->titleFont();
    titleFont.setBold(true);
    timeline->setTitleFont(titleFont);
    timeline->setMargins(QMargins(2, 2, 2, 2));
    timeline->layout()->setContentsMargins(0, 0, 0, 0);
    timeline->setBackgroundRoundness(0);
    m_timeAxis->setLabelFormat(QStringLiteral("%.0f"));
    m_attemptAxis->setTitleText(tr("attempt"));
    m_attemptAxis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    timeline->addAxis(m_timeAxis, Qt::AlignBottom);
    timeline->addAxis(m_attemptAxis, Qt::AlignLeft);
    showEmpty(tr("Select an event to see its retry timeline"));
}

void RetryTimeline::setModel(AttemptModel *model)
{
    if (m_model)
        disconnect(m_model, nullptr, this, nullptr);
    m_model = model;
    if (m_model) {
        connect(m_model, &QAbstractItemModel::modelReset, this, &RetryTimeline::rebuild);
        connect(m_model, &QAbstractItemModel::rowsInserted, this, &RetryTimeline::rebuild);
    }
    rebuild();
}

QList<RetryTimeline::Attempt> RetryTimeline::readAttempts() const
{
    QList<Attempt> attempts;
    const auto raw = [this](int row, int column) {
        return m_model->index(row, column).data(AttemptModel::RawValueRole);
    };
    for (int row = 0; row < m_model->rowCount(); ++row) {
        Attempt attempt;
        attempt.number = raw(row, AttemptModel::AttemptColumn).toInt();
        attempt.claimedAt = raw(row, AttemptModel::ClaimedColumn).toLongLong();
        attempt.finishedAt = optionalTime(raw(row, AttemptModel::FinishedColumn));
        attempt.outcome = m_model->index(row, AttemptModel::OutcomeColumn)
                              .data(AttemptModel::OutcomeRole)
                              .toString();
        attempt.nextAttemptAt = optionalTime(raw(row, AttemptModel::NextAttemptColumn));
        attempts << attempt;
    }
    return attempts;
}

void RetryTimeline::rebuild()
{
    chart()->removeAllSeries();
    if (!m_model || m_model->eventId().isEmpty()) {
        showEmpty(tr("Select an event to see its retry timeline"));
        return;
    }
    // Chart titles are rich text; the ID's invisible characters shown escaped (PlainText).
    const QString eventId = PlainText::escaped(m_model->eventId()).toHtmlEscaped();
    const QList<Attempt> attempts = readAttempts();
    if (attempts.isEmpty()) {
        showEmpty(tr("%1 has no attempts yet").arg(eventId));
        setAccessibleDescription(tr("%1 has no attempts yet.").arg(m_model->eventId()));
        return;
    }
    chart()->setTitle(tr("Retry timeline of %1").arg(eventId));
    describe(attempts);
    // Epoch milliseconds read badly on an axis: real times count from the first claim.
    const qint64 first = attempts.first().claimedAt;
    const qint64 origin = TimeFormat::isLogical(first) ? 0 : first;
    updateTimeAxis(attempts, origin); // first: it sets the unit the points are placed in
    addAttemptSeries(attempts, origin);
    updateAttemptAxis(attempts);
    hideRepeatedLegendMarkers();
}

void RetryTimeline::addAttemptSeries(const QList<Attempt> &attempts, qint64 origin)
{
    const auto point = [origin, this](qint64 time, int number) {
        return QPointF(qreal(time - origin) / m_divisor, number);
    };
    QList<QPointF> claims, dues;
    for (const Attempt &attempt : attempts) {
        const QPointF claimed = point(attempt.claimedAt, attempt.number);
        claims << claimed;
        const QPointF end
            = attempt.finishedAt ? point(*attempt.finishedAt, attempt.number) : claimed;
        addSeries(attemptSeries(attempt.outcome), {claimed, end});
        if (attempt.outcome == QLatin1String("RETRY") && attempt.nextAttemptAt) {
            const QPointF due = point(*attempt.nextAttemptAt, attempt.number);
            addSeries(
                segmentSeries(tr("waiting"), outcomeColour(attempt.outcome), 1.5, Qt::DashLine),
                {end, due});
            dues << due;
        }
    }
    addSeries(
        markerSeries(tr("claimed"), QScatterSeries::MarkerShapeCircle, claimColour(), 7), claims);
    if (!dues.isEmpty()) {
        addSeries(markerSeries(tr("next due"), QScatterSeries::MarkerShapeTriangle,
                      outcomeColour(QStringLiteral("RETRY")), 11),
            dues);
    }
}

// Each attempt's outcome in words, and when the next one is due, for a screen reader.
void RetryTimeline::describe(const QList<Attempt> &attempts)
{
    QStringList parts;
    for (const Attempt &attempt : attempts) {
        QString part = tr("attempt %1: %2")
                           .arg(attempt.number)
                           .arg(attempt.outcome.isEmpty() ? tr("in flight") : attempt.outcome);
        if (attempt.outcome == QLatin1String("RETRY") && attempt.nextAttemptAt)
            part += tr(", next due %1").arg(TimeFormat::time(*attempt.nextAttemptAt));
        parts << part;
    }
    setAccessibleDescription(
        tr("Retry timeline of %1: %2.").arg(m_model->eventId(), parts.join(QStringLiteral("; "))));
}

void RetryTimeline::showEmpty(const QString &message)
{
    setAccessibleDescription(message);
    chart()->setTitle(message);
    m_timeAxis->setVisible(false);
    m_attemptAxis->setVisible(false);
}

void RetryTimeline::addSeries(QXYSeries *series, const QList<QPointF> &points)
{
    series->replace(points); // one call, before the chart draws it
    chart()->addSeries(series);
    series->attachAxis(m_timeAxis);
    series->attachAxis(m_attemptAxis);
}

void RetryTimeline::updateTimeAxis(const QList<Attempt> &attempts, qint64 origin)
{
    qint64 low = attempts.first().claimedAt, high = low;
    for (const Attempt &attempt : attempts) {
        for (const std::optional<qint64> &time :
            {std::optional<qint64>(attempt.claimedAt), attempt.finishedAt, attempt.nextAttemptAt}) {
            if (time) {
                low = std::min(low, *time);
                high = std::max(high, *time);
            }
        }
    }
    const bool logical = TimeFormat::isLogical(attempts.first().claimedAt);
    const AxisRange range = axisRange(low - origin, high - origin, logical);
    m_divisor = range.divisor;
    m_timeAxis->setRange(range.min, range.max);
    m_timeAxis->setTickCount(range.tickCount);
    m_timeAxis->setLabelFormat(range.max - range.min < range.tickCount - 1
            ? QStringLiteral("%.1f")
            : QStringLiteral("%.0f"));
    m_timeAxis->setTitleText(
        logical ? tr("time (units)") : tr("time (%1 since first claim)").arg(range.unit));
    m_timeAxis->setVisible(true);
}

namespace {

// The smallest of 1, 2 and 5 times a power of ten that is at least `raw`.
qreal niceStep(qreal raw)
{
    const qreal power = std::pow(10.0, std::floor(std::log10(std::max<qreal>(raw, 1e-9))));
    for (const qreal factor : {1.0, 2.0, 5.0, 10.0}) {
        if (factor * power >= raw * (1 - 1e-9))
            return factor * power;
    }
    return 10 * power;
}

} // namespace

RetryTimeline::AxisRange RetryTimeline::axisRange(qint64 low, qint64 high, bool logical)
{
    AxisRange range;
    range.unit = logical ? tr("units") : tr("ms");
    const qint64 span = high - low;
    // Humane units: ms only for a span under ten seconds (a 40 s back-off reads "40 s", not
    // "40000 ms"), minutes from ten minutes on.
    if (!logical && span >= SecondsFromMs) {
        range.divisor = span >= MinutesFromMs ? 60 * 1000 : 1000;
        range.unit = range.divisor == 1000 ? tr("s") : tr("min");
    }
    // A short attempt (the simulator's take no time at all) still gets a readable axis: at
    // least ten units, or ten milliseconds, from the first claim on.
    const qreal from = qreal(low) / range.divisor;
    const qreal to = qreal(high) / range.divisor;
    const qreal minSpan = 10;
    const qreal step = niceStep(std::max(to - from, minSpan) / 5);
    range.min = std::floor(from / step) * step;
    range.max = std::max(std::ceil(to / step) * step, range.min + minSpan);
    if (range.max <= to) // the last point is never drawn on the frame's edge
        range.max += step;
    range.max = range.min + std::ceil((range.max - range.min) / step - 1e-9) * step;
    range.tickCount = int(std::lround((range.max - range.min) / step)) + 1;
    return range;
}

void RetryTimeline::updateAttemptAxis(const QList<Attempt> &attempts)
{
    for (const QString &label : m_attemptAxis->categoriesLabels())
        m_attemptAxis->remove(label);
    m_attemptAxis->setStartValue(attempts.first().number - 0.5);
    for (const Attempt &attempt : attempts)
        m_attemptAxis->append(QStringLiteral("#%1").arg(attempt.number), attempt.number);
    m_attemptAxis->setRange(attempts.first().number - 0.5, attempts.last().number + 0.5);
    m_attemptAxis->setVisible(true);
}

void RetryTimeline::hideRepeatedLegendMarkers()
{
    // One segment series per attempt: the legend names each outcome once.
    QSet<QString> seen;
    for (QLegendMarker *marker : chart()->legend()->markers()) {
        const QString name = marker->series()->name();
        marker->setVisible(!seen.contains(name));
        seen.insert(name);
    }
}
