#include "overviewpage.h"

#include "agehistogrammodel.h"
#include "attemptshistogrammodel.h"
#include "chartstyle.h"
#include "errorcategorymodel.h"
#include "healthsnapshot.h"
#include "historymodel.h"
#include "statuscolorproxy.h"
#include "themecolours.h"
#include "timeformat.h"

#include <QAbstractButton>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QButtonGroup>
#include <QChart>
#include <QChartView>
#include <QGraphicsLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QLineSeries>
#include <QLocale>
#include <QPieSeries>
#include <QPieSlice>
#include <QStackedBarSeries>
#include <QToolButton>
#include <QVBarModelMapper>
#include <QVPieModelMapper>
#include <QVXYModelMapper>
#include <QValueAxis>
#include <cmath>

namespace {

// "the budget spent at 5", "budget 3 to 20 per event", "limit unknown"
QString spentAt(const AttemptLimit &limit)
{
    return limit.value() ? OverviewPage::tr("budget spent at %1").arg(*limit.value())
                         : limit.budget();
}

// Two charts side by side fit the right-hand pane of a 1366x768 window.
constexpr QSize MinimumChartSize(220, 210);

qreal columnMax(const QAbstractItemModel *model, int column)
{
    qreal max = 0;
    for (int row = 0; row < model->rowCount(); ++row)
        max = std::max(max, model->index(row, column).data().toReal());
    return max;
}

// Axis labels are rich text: "<= 1 s" would read as a tag and vanish.
QStringList columnLabels(const QAbstractItemModel *model, int column)
{
    QStringList labels;
    for (int row = 0; row < model->rowCount(); ++row) {
        QString text = model->index(row, column).data().toString();
        labels << text.replace(QLatin1String("<="), QStringLiteral("≤")).toHtmlEscaped();
    }
    return labels;
}

QColor categoryColour(const QString &category)
{
    if (category == QLatin1String("PERMANENT"))
        return StatusColorProxy::colorFor(QStringLiteral("DEAD"));
    if (category == QLatin1String("TRANSIENT"))
        return StatusColorProxy::colorFor(QStringLiteral("RETRY"));
    return ThemeColours::neutral();
}

// The x axis of a history chart: the range in its unit before now, ticks on whole units.
struct AgoAxis
{
    qreal first;
    int ticks;
    QString title;
};

// On a simulator's logical clock a bucket holds as many units as it would hold milliseconds:
// the history speaks units there, as the tiles and the table do.
AgoAxis agoAxis(HistoryRange range, bool logical)
{
    if (logical) {
        const AgoAxis wall = agoAxis(range, false);
        const qint64 step = DeliveryHistory::bucketMs(range) * HistoryModel::bucketsPerUnit(range);
        return {wall.first, wall.ticks, OverviewPage::tr("× %1 ago").arg(TimeFormat::units(step))};
    }
    switch (range) {
    case HistoryRange::Hour:
        return {-60, 7, OverviewPage::tr("minutes ago")};
    case HistoryRange::Day:
        return {-24, 7, OverviewPage::tr("hours ago")};
    case HistoryRange::Week:
        break;
    }
    return {-7, 8, OverviewPage::tr("days ago")};
}

// Short enough for a chart 220 px wide; the range shows on the buttons and the x axis.
QString throughputTitle(HistoryRange range, bool logical)
{
    if (logical)
        return OverviewPage::tr("Attempts per %1")
            .arg(TimeFormat::units(DeliveryHistory::bucketMs(range)));
    switch (range) {
    case HistoryRange::Hour:
        return OverviewPage::tr("Attempts per minute");
    case HistoryRange::Day:
        return OverviewPage::tr("Attempts per 15 min");
    case HistoryRange::Week:
        break;
    }
    return OverviewPage::tr("Attempts per hour");
}

QString latencyTitle(HistoryRange range, bool logical)
{
    if (logical)
        return OverviewPage::tr("Latency per %1")
            .arg(TimeFormat::units(DeliveryHistory::bucketMs(range)));
    switch (range) {
    case HistoryRange::Hour:
        return OverviewPage::tr("Latency per minute");
    case HistoryRange::Day:
        return OverviewPage::tr("Latency per 15 min");
    case HistoryRange::Week:
        break;
    }
    return OverviewPage::tr("Latency per hour");
}

void setAgoRange(QValueAxis *axis, HistoryRange range, bool logical)
{
    const AgoAxis ago = agoAxis(range, logical);
    axis->setRange(ago.first, 0);
    axis->setTickCount(ago.ticks);
    axis->setTitleText(ago.title);
}

} // namespace

OverviewPage::OverviewPage(AgeHistogramModel *ages, AttemptsHistogramModel *failures,
    HistoryModel *history, ErrorCategoryModel *categories, QWidget *parent)
    : QWidget(parent)
    , m_ages(ages)
    , m_failures(failures)
    , m_history(history)
    , m_categories(categories)
{
    auto *column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(4);
    m_snapshotGrid = new QGridLayout;
    m_snapshotGrid->setSpacing(4);
    m_historyGrid = new QGridLayout;
    m_historyGrid->setSpacing(4);
    // The distributions first (pending events by age, failures per event): on the Overview
    // page they are what an operator reads first; the history below, then scrolling.
    column->addLayout(m_snapshotGrid, 1);
    column->addLayout(m_historyGrid, 1);
    setupAgeChart();
    setupFailuresChart();
    setupCategoryChart();
    setupRangePicker(m_historyGrid);
    setupThroughputChart();
    setupLatencyChart();
    connect(m_history, &QAbstractItemModel::modelReset, this, &OverviewPage::updateHistory);
    updateHistory();
    // A screen reader reads each chart's figures (the charts themselves are pictures).
    for (const QAbstractItemModel *model :
        {static_cast<QAbstractItemModel *>(m_ages), static_cast<QAbstractItemModel *>(m_failures),
            static_cast<QAbstractItemModel *>(m_categories),
            static_cast<QAbstractItemModel *>(m_history)}) {
        connect(model, &QAbstractItemModel::modelReset, this, &OverviewPage::updateSummaries);
        connect(model, &QAbstractItemModel::dataChanged, this, &OverviewPage::updateSummaries);
    }
    updateSummaries();
}

QString OverviewPage::summaryText(const QString &chartName) const
{
    const auto *view = findChild<QChartView *>(chartName);
    return view ? view->accessibleDescription() : QString();
}

void OverviewPage::describe(const QString &view, const QString &name, const QString &summary)
{
    if (auto *chart = findChild<QChartView *>(view)) {
        chart->setAccessibleName(name);
        chart->setAccessibleDescription(summary);
    }
}

namespace {

// "label: count" for each row with a count, or `none`.
QString countsText(
    const QAbstractItemModel *model, int labelColumn, int countColumn, const QString &none)
{
    QStringList parts;
    for (int row = 0; row < model->rowCount(); ++row) {
        const qint64 count = model->index(row, countColumn).data().toLongLong();
        if (count > 0)
            parts << OverviewPage::tr("%1: %2").arg(
                model->index(row, labelColumn).data().toString(), QLocale().toString(count));
    }
    return parts.isEmpty() ? none : parts.join(QStringLiteral(", "));
}

} // namespace

void OverviewPage::updateSummaries()
{
    if (!m_latencyChart)
        return; // still being built
    describe(QStringLiteral("ageChart"), tr("Pending events by age"),
        tr("Pending events by age: %1.")
            .arg(countsText(m_ages, AgeHistogramModel::LabelColumn, AgeHistogramModel::CountColumn,
                tr("none pending"))));
    QStringList failures;
    for (int row = 0; row < m_failures->rowCount(); ++row) {
        const auto cell
            = [this, row](int column) { return m_failures->index(row, column).data().toInt(); };
        const qint64 pending = cell(AttemptsHistogramModel::PendingColumn);
        const qint64 dead = cell(AttemptsHistogramModel::DeadColumn);
        if (pending + dead > 0)
            failures << tr("%n failure(s): %1 pending, %2 DEAD", nullptr,
                cell(AttemptsHistogramModel::FailuresColumn))
                            .arg(QLocale().toString(pending), QLocale().toString(dead));
    }
    describe(QStringLiteral("failuresChart"), tr("Failures per event"),
        tr("Failures per event, %1: %2.")
            .arg(m_limit.value() ? tr("the budget spent at %1").arg(*m_limit.value())
                                 : m_limit.budget())
            .arg(failures.isEmpty() ? tr("no event has failed") : failures.join(u"; "_qs)));
    describe(QStringLiteral("categoryChart"), tr("Error categories"),
        tr("Error categories: %1.")
            .arg(countsText(m_categories, ErrorCategoryModel::CategoryColumn,
                ErrorCategoryModel::CountColumn, tr("none"))));
    describe(QStringLiteral("throughputChart"), m_throughputChart->title(), historySummary());
    describe(QStringLiteral("latencyChart"), m_latencyChart->title(), latencySummary());
}

QString OverviewPage::historySummary() const
{
    qint64 delivered = 0, failed = 0;
    for (int row = 0; row < m_history->rowCount(); ++row) {
        delivered += m_history->index(row, HistoryModel::DeliveredColumn).data().toLongLong();
        failed += m_history->index(row, HistoryModel::FailedColumn).data().toLongLong();
    }
    if (m_history->rowCount() == 0)
        return tr("Attempts over the last %1: not read yet.")
            .arg(DeliveryHistory::rangeName(m_range));
    return tr("Attempts over the last %1: %2 delivered, %3 failed.")
        .arg(DeliveryHistory::rangeName(m_history->history().range), QLocale().toString(delivered),
            QLocale().toString(failed));
}

// The newest bucket with deliveries: its p50, p95 and p99.
QString OverviewPage::latencySummary() const
{
    for (int row = m_history->rowCount() - 1; row >= 0; --row) {
        const QVariant p50 = m_history->index(row, HistoryModel::P50Column).data();
        if (p50.isNull())
            continue;
        const auto latency = [this, row](int column) -> QString {
            const double value = m_history->index(row, column).data().toDouble() * latencyScale();
            return QLocale().toString(value, 'g', 3) + (isLogical() ? tr(" units") : tr(" s"));
        };
        return tr("Delivery latency, %1 %2: p50 %3, p95 %4, p99 %5.")
            .arg(QLocale().toString(
                     qAbs(m_history->index(row, HistoryModel::AgoColumn).data().toReal()), 'g', 3),
                agoAxis(m_history->history().range, isLogical()).title,
                latency(HistoryModel::P50Column), latency(HistoryModel::P95Column),
                latency(HistoryModel::P99Column));
    }
    return tr("Delivery latency: no delivery in this range.");
}

QChartView *OverviewPage::addChartView(
    QChart *chart, const QString &name, QGridLayout *grid, int row, int column, int columnSpan)
{
    auto *view = new QChartView(chart);
    view->setObjectName(name);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(MinimumChartSize);
    grid->addWidget(view, row, column, 1, columnSpan);
    return view;
}

void OverviewPage::setupRangePicker(QGridLayout *grid)
{
    auto *bar = new QHBoxLayout;
    bar->setSpacing(2);
    auto *label = new QLabel(tr("History:"));
    bar->addWidget(label);
    m_rangeButtons = new QButtonGroup(this);
    for (const HistoryRange range : {HistoryRange::Hour, HistoryRange::Day, HistoryRange::Week}) {
        auto *button = new QToolButton;
        const QString name = DeliveryHistory::rangeName(range);
        button->setText(range == HistoryRange::Hour ? tr("1 h")
                : range == HistoryRange::Day        ? tr("24 h")
                                                    : tr("7 d"));
        button->setObjectName(u"range"_qs + name);
        button->setCheckable(true);
        button->setChecked(range == m_range);
        button->setToolTip(tr("Throughput and delivery latency over the last %1").arg(name));
        m_rangeButtons->addButton(button, int(range));
        bar->addWidget(button);
    }
    bar->addStretch();
    connect(m_rangeButtons, &QButtonGroup::idClicked, this,
        [this](int id) { setRange(HistoryRange(id)); });
    grid->addLayout(bar, 0, 0, 1, 2);
}

void OverviewPage::setRange(HistoryRange range)
{
    if (QAbstractButton *button = m_rangeButtons->button(int(range)))
        button->setChecked(true);
    if (range == m_range)
        return;
    m_range = range;
    emit rangeChanged(range);
}

void OverviewPage::setupAgeChart()
{
    QChart *chart = ChartStyle::newChart(tr("Pending events by age"));
    // Horizontal bars: the bucket labels read in full down the side even in a narrow pane.
    m_ageSeries = new QHorizontalBarSeries;
    m_ageSeries->setLabelsVisible(true);
    m_ageSeries->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    m_ageSeries->setLabelsPrecision(12); // whole counts, never 1.2e+04
    chart->addSeries(m_ageSeries);
    m_ageBuckets = new QBarCategoryAxis;
    m_ageCounts = ChartStyle::countAxis();
    ChartStyle::addAxis(chart, m_ageBuckets, Qt::AlignLeft);
    ChartStyle::addAxis(chart, m_ageCounts, Qt::AlignBottom);
    m_ageSeries->attachAxis(m_ageBuckets);
    m_ageSeries->attachAxis(m_ageCounts);
    chart->legend()->hide(); // one series: the title says what it is

    connect(m_ageSeries, &QAbstractBarSeries::barsetsAdded, this, [this] {
        for (QBarSet *set : m_ageSeries->barSets()) {
            set->setColor(ChartStyle::pendingBlue());
            set->setLabelColor(ChartStyle::textColour()); // sets made after the theme have none
        }
    });
    auto *mapper = new QVBarModelMapper(this);
    mapper->setFirstBarSetColumn(AgeHistogramModel::CountColumn);
    mapper->setLastBarSetColumn(AgeHistogramModel::CountColumn);
    mapper->setSeries(m_ageSeries);
    mapper->setModel(m_ages);
    connect(m_ages, &QAbstractItemModel::modelReset, this, &OverviewPage::updateAgeAxes);
    connect(m_ages, &QAbstractItemModel::dataChanged, this, &OverviewPage::updateAgeAxes);
    updateAgeAxes();
    addChartView(chart, QStringLiteral("ageChart"), m_snapshotGrid, 0, 0);
}

void OverviewPage::setupFailuresChart()
{
    m_failuresChart = ChartStyle::newChart({});
    m_failuresSeries = new QStackedBarSeries;
    m_failuresChart->addSeries(m_failuresSeries);
    m_failuresAxisX = new QBarCategoryAxis;
    m_failuresAxisY = ChartStyle::countAxis();
    ChartStyle::addAxis(m_failuresChart, m_failuresAxisX, Qt::AlignBottom);
    ChartStyle::addAxis(m_failuresChart, m_failuresAxisY, Qt::AlignLeft);
    m_failuresSeries->attachAxis(m_failuresAxisX);
    m_failuresSeries->attachAxis(m_failuresAxisY);

    connect(
        m_failuresSeries, &QAbstractBarSeries::barsetsAdded, this, &OverviewPage::colourFailureSets);
    auto *mapper = new QVBarModelMapper(this);
    mapper->setFirstBarSetColumn(AttemptsHistogramModel::PendingColumn);
    mapper->setLastBarSetColumn(AttemptsHistogramModel::DeadColumn);
    mapper->setSeries(m_failuresSeries);
    mapper->setModel(m_failures);
    connect(m_failures, &QAbstractItemModel::modelReset, this, &OverviewPage::updateFailuresAxes);
    connect(m_failures, &QAbstractItemModel::dataChanged, this, &OverviewPage::updateFailuresAxes);
    setAttemptLimit(m_limit);
    updateFailuresAxes();
    addChartView(m_failuresChart, QStringLiteral("failuresChart"), m_snapshotGrid, 0, 1);
}

void OverviewPage::setupThroughputChart()
{
    m_throughputChart = ChartStyle::newChart(throughputTitle(m_range, false));
    QChart *chart = m_throughputChart;
    auto addLine = [this, chart](const QString &name, int column, const QColor &colour) {
        auto *series = new QLineSeries;
        series->setName(name);
        series->setPen(QPen(colour, 2));
        auto *mapper = new QVXYModelMapper(this);
        mapper->setXColumn(HistoryModel::AgoColumn);
        mapper->setYColumn(column);
        mapper->setSeries(series);
        mapper->setModel(m_history);
        chart->addSeries(series);
        return series;
    };
    QLineSeries *delivered = addLine(tr("Delivered"), HistoryModel::DeliveredColumn,
        StatusColorProxy::colorFor(QStringLiteral("DELIVERED")));
    QLineSeries *failed = addLine(tr("Failed"), HistoryModel::FailedColumn,
        StatusColorProxy::colorFor(QStringLiteral("DEAD")));
    m_throughputAxisX = new QValueAxis;
    m_throughputAxisX->setLabelFormat(QStringLiteral("%.0f"));
    m_throughputAxisY = ChartStyle::countAxis();
    ChartStyle::addAxis(chart, m_throughputAxisX, Qt::AlignBottom);
    ChartStyle::addAxis(chart, m_throughputAxisY, Qt::AlignLeft);
    for (QLineSeries *series : {delivered, failed}) {
        series->attachAxis(m_throughputAxisX);
        series->attachAxis(m_throughputAxisY);
    }
    addChartView(chart, QStringLiteral("throughputChart"), m_historyGrid, 1, 0);
}

// Fed by replace() rather than a mapper: a bucket without deliveries has no latency and
// gets no point, where a mapper would draw 0.
void OverviewPage::setupLatencyChart()
{
    m_latencyChart = ChartStyle::newChart(latencyTitle(m_range, false));
    m_latencyAxisX = new QValueAxis;
    m_latencyAxisX->setLabelFormat(QStringLiteral("%.0f"));
    m_latencyAxisY = new QValueAxis;
    m_latencyAxisY->setTitleText(tr("seconds"));
    ChartStyle::addAxis(m_latencyChart, m_latencyAxisX, Qt::AlignBottom);
    ChartStyle::addAxis(m_latencyChart, m_latencyAxisY, Qt::AlignLeft);
    const QList<std::pair<QString, QColor>> lines
        = {{tr("p50"), StatusColorProxy::colorFor(QStringLiteral("DELIVERED"))},
            {tr("p95"), ChartStyle::pendingBlue()},
            {tr("p99"), StatusColorProxy::colorFor(QStringLiteral("RETRY"))}};
    for (const auto &[name, colour] : lines) {
        auto *series = new QLineSeries;
        series->setName(name);
        series->setPen(QPen(colour, 2));
        series->setPointsVisible(true); // a lone bucket with deliveries still shows
        m_latencyChart->addSeries(series);
        series->attachAxis(m_latencyAxisX);
        series->attachAxis(m_latencyAxisY);
        m_latencySeries << series;
    }
    addChartView(m_latencyChart, QStringLiteral("latencyChart"), m_historyGrid, 1, 1);
}

void OverviewPage::updateHistory()
{
    const HistoryRange shown = m_history->rowCount() ? m_history->history().range : m_range;
    // The oldest buckets of a first reading of 7 d may follow over a few refreshes.
    const QString reading
        = m_history->rowCount() && !m_history->history().complete ? tr(" (reading…)") : QString();
    const bool logical = isLogical();
    m_throughputChart->setTitle(throughputTitle(shown, logical) + reading);
    m_latencyChart->setTitle(latencyTitle(shown, logical) + reading);
    setAgoRange(m_throughputAxisX, shown, logical);
    setAgoRange(m_latencyAxisX, shown, logical);
    m_latencyAxisY->setTitleText(logical ? tr("units") : tr("seconds"));
    ChartStyle::setCountRange(m_throughputAxisY,
        std::max(columnMax(m_history, HistoryModel::DeliveredColumn),
            columnMax(m_history, HistoryModel::FailedColumn)));
    updateLatencySeries();
}

bool OverviewPage::isLogical() const
{
    return m_history->rowCount() > 0 && TimeFormat::isLogical(m_history->history().now);
}

// The model's latency is in seconds (milliseconds / 1000); on a logical clock, units.
qreal OverviewPage::latencyScale() const
{
    return isLogical() ? 1000.0 : 1.0;
}

void OverviewPage::updateLatencySeries()
{
    const int columns[]
        = {HistoryModel::P50Column, HistoryModel::P95Column, HistoryModel::P99Column};
    qreal max = 0;
    for (int i = 0; i < m_latencySeries.size(); ++i) {
        QList<QPointF> points;
        for (int row = 0; row < m_history->rowCount(); ++row) {
            const QVariant value = m_history->index(row, columns[i]).data();
            if (value.isNull())
                continue;
            const qreal latency = value.toReal() * latencyScale();
            points << QPointF(
                m_history->index(row, HistoryModel::AgoColumn).data().toReal(), latency);
            max = std::max(max, latency);
        }
        m_latencySeries.at(i)->replace(points);
    }
    m_latencyAxisY->setRange(0, max > 0 ? max * 1.1 : 1);
    m_latencyAxisY->applyNiceNumbers();
}

void OverviewPage::setupCategoryChart()
{
    m_categoryChart = ChartStyle::newChart({});
    QChart *chart = m_categoryChart;
    m_categorySeries = new QPieSeries;
    m_categorySeries->setPieSize(0.75);
    chart->addSeries(m_categorySeries);
    connect(m_categorySeries, &QPieSeries::added, this, &OverviewPage::decorateCategorySlices);
    auto *mapper = new QVPieModelMapper(this);
    mapper->setLabelsColumn(ErrorCategoryModel::CategoryColumn);
    mapper->setValuesColumn(ErrorCategoryModel::CountColumn);
    mapper->setSeries(m_categorySeries);
    mapper->setModel(m_categories);
    connect(m_categories, &QAbstractItemModel::modelReset, this, &OverviewPage::updateCategoryTitle);
    updateCategoryTitle();
    addChartView(chart, QStringLiteral("categoryChart"), m_snapshotGrid, 1, 0, 2);
}

void OverviewPage::setAttemptLimit(const AttemptLimit &limit)
{
    m_limit = limit;
    m_failuresChart->setTitle(tr("Failures per event (%1)").arg(limit.budget()));
    // Under the bars, where a reader looks for what the columns mean.
    m_failuresAxisX->setTitleText(tr("failures so far (%1)").arg(spentAt(limit)));
    updateSummaries();
}

void OverviewPage::updateAgeAxes()
{
    m_ageBuckets->setCategories(columnLabels(m_ages, AgeHistogramModel::LabelColumn));
    // Headroom beside the longest bar for its count label.
    ChartStyle::setCountRange(
        m_ageCounts, columnMax(m_ages, AgeHistogramModel::CountColumn) * 1.15);
}

void OverviewPage::updateFailuresAxes()
{
    m_failuresAxisX->setCategories(
        columnLabels(m_failures, AttemptsHistogramModel::FailuresColumn));
    qreal max = 0;
    for (int row = 0; row < m_failures->rowCount(); ++row) {
        max = std::max(max,
            m_failures->index(row, AttemptsHistogramModel::PendingColumn).data().toReal()
                + m_failures->index(row, AttemptsHistogramModel::DeadColumn).data().toReal());
    }
    ChartStyle::setCountRange(m_failuresAxisY, max);
}

void OverviewPage::updateCategoryTitle()
{
    // An empty pie draws nothing at all; the title says why.
    const bool none = columnMax(m_categories, ErrorCategoryModel::CountColumn) == 0;
    m_categoryChart->setTitle(none ? tr("Error categories: none") : tr("Error categories"));
}

void OverviewPage::colourFailureSets()
{
    // The mapper makes new bar sets on every model reset, in column order: PENDING, DEAD.
    const QList<QBarSet *> sets = m_failuresSeries->barSets();
    if (!sets.isEmpty())
        sets.first()->setColor(ChartStyle::pendingBlue());
    if (sets.size() > 1)
        sets.at(1)->setColor(StatusColorProxy::colorFor(QStringLiteral("DEAD")));
}

void OverviewPage::decorateCategorySlices(const QList<QPieSlice *> &slices)
{
    // The mapper makes new slices on every model reset, labelled with the category alone.
    for (QPieSlice *slice : slices) {
        const QString category = slice->label();
        slice->setLabel(tr("%1: %2").arg(category).arg(qint64(slice->value())));
        slice->setColor(categoryColour(category));
        slice->setBorderColor(ThemeColours::current().color(QPalette::Base));
    }
}

void OverviewPage::setNotAvailable(const QString &profileName, const QStringList &keys)
{
    struct Chart
    {
        QString key;
        QString view;
        QString title;
        QString missing;
        QGridLayout *grid;
        int row;
        int column;
    };
    const QList<Chart> charts
        = {{QStringLiteral("age_histogram"), QStringLiteral("ageChart"),
               tr("Pending events by age"), tr("no creation time"), m_snapshotGrid, 0, 0},
            {QStringLiteral("attempts_histogram"), QStringLiteral("failuresChart"),
                tr("Failures per event"), tr("no failure count"), m_snapshotGrid, 0, 1},
            {QStringLiteral("error_categories"), QStringLiteral("categoryChart"),
                tr("Error categories"), tr("no error category"), m_snapshotGrid, 1, 0},
            {QStringLiteral("throughput_per_minute"), QStringLiteral("throughputChart"),
                tr("Delivered vs failed"), tr("no attempt history"), m_historyGrid, 1, 0},
            {QStringLiteral("delivery_latency_ms"), QStringLiteral("latencyChart"),
                tr("Delivery latency"), tr("no creation or delivery time"), m_historyGrid, 1, 1}};
    for (const Chart &chart : charts) {
        if (!keys.contains(chart.key))
            continue;
        if (auto *view = findChild<QChartView *>(chart.view))
            view->hide();
        auto *label = new QLabel(
            tr("%1\nnot available for %2: %3").arg(chart.title, profileName, chart.missing));
        label->setObjectName(chart.view + QStringLiteral("NotAvailable"));
        label->setTextFormat(Qt::PlainText); // a profile file's name
        label->setWordWrap(true);
        label->setAlignment(Qt::AlignCenter);
        label->setMinimumSize(MinimumChartSize);
        chart.grid->addWidget(label, chart.row, chart.column);
    }
}

QWidget *OverviewPage::focusTarget() const
{
    const QList<QAbstractButton *> buttons = m_rangeButtons->buttons();
    if (buttons.isEmpty())
        return const_cast<OverviewPage *>(this);
    return buttons.first();
}

void OverviewPage::outboxChanged(const HealthSnapshot &snapshot, bool)
{
    m_ages->setSnapshot(snapshot);
    m_failures->setSnapshot(snapshot);
    m_categories->setSnapshot(snapshot);
    if (!m_teachingBudget) // the teaching session's relay names its own (setBudget)
        setAttemptLimit(
            AttemptLimit::range(snapshot.attemptLimitLowest, snapshot.attemptLimitHighest));
    if (!m_profileName.isEmpty() && !std::exchange(m_marked, true))
        setNotAvailable(m_profileName, snapshot.notAvailable);
}
