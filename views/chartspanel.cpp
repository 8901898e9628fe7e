#include "chartspanel.h"

#include "agehistogrammodel.h"
#include "attemptshistogrammodel.h"
#include "chartstyle.h"
#include "errorcategorymodel.h"
#include "statuscolorproxy.h"
#include "themecolours.h"
#include "throughputmodel.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QGraphicsLayout>
#include <QGridLayout>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QLineSeries>
#include <QPieSeries>
#include <QPieSlice>
#include <QStackedBarSeries>
#include <QVBarModelMapper>
#include <QVPieModelMapper>
#include <QVXYModelMapper>
#include <QValueAxis>
#include <cmath>

using namespace ChartStyle;

namespace {

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

} // namespace

ChartsPanel::ChartsPanel(AgeHistogramModel *ages, AttemptsHistogramModel *failures,
    ThroughputModel *throughput, ErrorCategoryModel *categories, QWidget *parent)
    : QWidget(parent)
    , m_ages(ages)
    , m_failures(failures)
    , m_throughput(throughput)
    , m_categories(categories)
{
    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setSpacing(4);
    setupAgeChart();
    setupFailuresChart();
    setupThroughputChart();
    setupCategoryChart();
}

QChartView *ChartsPanel::addChartView(QChart *chart, const QString &name, int row, int column)
{
    auto *view = new QChartView(chart);
    view->setObjectName(name);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(300, 210);
    static_cast<QGridLayout *>(layout())->addWidget(view, row, column);
    return view;
}

void ChartsPanel::setupAgeChart()
{
    QChart *chart = newChart(tr("Pending events by age"));
    // Horizontal bars: the bucket labels read in full down the side even in a narrow pane.
    m_ageSeries = new QHorizontalBarSeries;
    m_ageSeries->setLabelsVisible(true);
    m_ageSeries->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    m_ageSeries->setLabelsPrecision(12); // whole counts, never 1.2e+04
    chart->addSeries(m_ageSeries);
    m_ageBuckets = new QBarCategoryAxis;
    m_ageCounts = countAxis();
    addAxis(chart, m_ageBuckets, Qt::AlignLeft);
    addAxis(chart, m_ageCounts, Qt::AlignBottom);
    m_ageSeries->attachAxis(m_ageBuckets);
    m_ageSeries->attachAxis(m_ageCounts);
    chart->legend()->hide(); // one series: the title says what it is

    connect(m_ageSeries, &QAbstractBarSeries::barsetsAdded, this, [this] {
        for (QBarSet *set : m_ageSeries->barSets()) {
            set->setColor(pendingBlue());
            set->setLabelColor(textColour()); // sets made after the theme have none
        }
    });
    auto *mapper = new QVBarModelMapper(this);
    mapper->setFirstBarSetColumn(AgeHistogramModel::CountColumn);
    mapper->setLastBarSetColumn(AgeHistogramModel::CountColumn);
    mapper->setSeries(m_ageSeries);
    mapper->setModel(m_ages);
    connect(m_ages, &QAbstractItemModel::modelReset, this, &ChartsPanel::updateAgeAxes);
    updateAgeAxes();
    addChartView(chart, QStringLiteral("ageChart"), 0, 0);
}

void ChartsPanel::setupFailuresChart()
{
    m_failuresChart = newChart({});
    m_failuresSeries = new QStackedBarSeries;
    m_failuresChart->addSeries(m_failuresSeries);
    m_failuresAxisX = new QBarCategoryAxis;
    m_failuresAxisY = countAxis();
    addAxis(m_failuresChart, m_failuresAxisX, Qt::AlignBottom);
    addAxis(m_failuresChart, m_failuresAxisY, Qt::AlignLeft);
    m_failuresSeries->attachAxis(m_failuresAxisX);
    m_failuresSeries->attachAxis(m_failuresAxisY);

    connect(
        m_failuresSeries, &QAbstractBarSeries::barsetsAdded, this, &ChartsPanel::colourFailureSets);
    auto *mapper = new QVBarModelMapper(this);
    mapper->setFirstBarSetColumn(AttemptsHistogramModel::PendingColumn);
    mapper->setLastBarSetColumn(AttemptsHistogramModel::DeadColumn);
    mapper->setSeries(m_failuresSeries);
    mapper->setModel(m_failures);
    connect(m_failures, &QAbstractItemModel::modelReset, this, &ChartsPanel::updateFailuresAxes);
    setBudget(m_budget);
    updateFailuresAxes();
    addChartView(m_failuresChart, QStringLiteral("failuresChart"), 0, 1);
}

void ChartsPanel::setupThroughputChart()
{
    QChart *chart = newChart(tr("Delivered vs failed per minute (last hour)"));
    auto addLine = [this, chart](const QString &name, int column, const QColor &colour) {
        auto *series = new QLineSeries;
        series->setName(name);
        series->setPen(QPen(colour, 2));
        auto *mapper = new QVXYModelMapper(this);
        mapper->setXColumn(ThroughputModel::MinuteColumn);
        mapper->setYColumn(column);
        mapper->setSeries(series);
        mapper->setModel(m_throughput);
        chart->addSeries(series);
        return series;
    };
    QLineSeries *delivered = addLine(tr("Delivered"), ThroughputModel::DeliveredColumn,
        StatusColorProxy::colorFor(QStringLiteral("DELIVERED")));
    QLineSeries *failed = addLine(tr("Failed (retry or dead)"), ThroughputModel::FailedColumn,
        StatusColorProxy::colorFor(QStringLiteral("DEAD")));
    m_throughputAxisX = new QValueAxis;
    m_throughputAxisX->setTitleText(tr("minute (0 = now)"));
    m_throughputAxisX->setLabelFormat(QStringLiteral("%.0f"));
    m_throughputAxisY = countAxis();
    addAxis(chart, m_throughputAxisX, Qt::AlignBottom);
    addAxis(chart, m_throughputAxisY, Qt::AlignLeft);
    for (QLineSeries *series : {delivered, failed}) {
        series->attachAxis(m_throughputAxisX);
        series->attachAxis(m_throughputAxisY);
    }
    connect(
        m_throughput, &QAbstractItemModel::modelReset, this, &ChartsPanel::updateThroughputAxes);
    updateThroughputAxes();
    addChartView(chart, QStringLiteral("throughputChart"), 1, 0);
}

void ChartsPanel::setupCategoryChart()
{
    m_categoryChart = newChart({});
    QChart *chart = m_categoryChart;
    m_categorySeries = new QPieSeries;
    m_categorySeries->setPieSize(0.75);
    chart->addSeries(m_categorySeries);
    connect(m_categorySeries, &QPieSeries::added, this, &ChartsPanel::decorateCategorySlices);
    auto *mapper = new QVPieModelMapper(this);
    mapper->setLabelsColumn(ErrorCategoryModel::CategoryColumn);
    mapper->setValuesColumn(ErrorCategoryModel::CountColumn);
    mapper->setSeries(m_categorySeries);
    mapper->setModel(m_categories);
    connect(m_categories, &QAbstractItemModel::modelReset, this, &ChartsPanel::updateCategoryTitle);
    updateCategoryTitle();
    addChartView(chart, QStringLiteral("categoryChart"), 1, 1);
}

void ChartsPanel::setBudget(int attempts)
{
    m_budget = attempts;
    m_failuresChart->setTitle(tr("Failures per event (budget %1)").arg(attempts));
    // Under the bars, where a reader looks for what the columns mean.
    m_failuresAxisX->setTitleText(tr("failures so far (budget spent at %1)").arg(attempts));
}

void ChartsPanel::updateAgeAxes()
{
    m_ageBuckets->setCategories(columnLabels(m_ages, AgeHistogramModel::LabelColumn));
    // Headroom beside the longest bar for its count label.
    setCountRange(m_ageCounts, columnMax(m_ages, AgeHistogramModel::CountColumn) * 1.15);
}

void ChartsPanel::updateFailuresAxes()
{
    m_failuresAxisX->setCategories(
        columnLabels(m_failures, AttemptsHistogramModel::FailuresColumn));
    qreal max = 0;
    for (int row = 0; row < m_failures->rowCount(); ++row) {
        max = std::max(max,
            m_failures->index(row, AttemptsHistogramModel::PendingColumn).data().toReal()
                + m_failures->index(row, AttemptsHistogramModel::DeadColumn).data().toReal());
    }
    setCountRange(m_failuresAxisY, max);
}

void ChartsPanel::updateThroughputAxes()
{
    const int rows = m_throughput->rowCount();
    qreal first = rows ? m_throughput->index(0, ThroughputModel::MinuteColumn).data().toReal()
                       : 1 - HealthSnapshot::ThroughputMinutes;
    first = std::floor(std::min<qreal>(first, -1) / 10) * 10; // ticks on whole ten minutes
    m_throughputAxisX->setRange(first, 0);
    m_throughputAxisX->setTickCount(int(-first / 10) + 1);
    setCountRange(m_throughputAxisY,
        std::max(columnMax(m_throughput, ThroughputModel::DeliveredColumn),
            columnMax(m_throughput, ThroughputModel::FailedColumn)));
}

void ChartsPanel::updateCategoryTitle()
{
    // An empty pie draws nothing at all; the title says why.
    const bool none = columnMax(m_categories, ErrorCategoryModel::CountColumn) == 0;
    m_categoryChart->setTitle(none ? tr("Error categories: none") : tr("Error categories"));
}

void ChartsPanel::colourFailureSets()
{
    // The mapper makes new bar sets on every model reset, in column order: PENDING, DEAD.
    const QList<QBarSet *> sets = m_failuresSeries->barSets();
    if (!sets.isEmpty())
        sets.first()->setColor(pendingBlue());
    if (sets.size() > 1)
        sets.at(1)->setColor(StatusColorProxy::colorFor(QStringLiteral("DEAD")));
}

void ChartsPanel::decorateCategorySlices(const QList<QPieSlice *> &slices)
{
    // The mapper makes new slices on every model reset, labelled with the category alone.
    for (QPieSlice *slice : slices) {
        const QString category = slice->label();
        slice->setLabel(tr("%1: %2").arg(category).arg(qint64(slice->value())));
        slice->setColor(categoryColour(category));
        slice->setBorderColor(ThemeColours::current().color(QPalette::Base));
    }
}

void ChartsPanel::setNotAvailable(const QString &profileName, const QStringList &keys)
{
    struct Chart
    {
        QString key;
        QString view;
        QString title;
        QString missing;
        int row;
        int column;
    };
    const QList<Chart> charts = {{QStringLiteral("age_histogram"), QStringLiteral("ageChart"),
                                     tr("Pending events by age"), tr("no creation time"), 0, 0},
        {QStringLiteral("attempts_histogram"), QStringLiteral("failuresChart"),
            tr("Failures per event"), tr("no failure count"), 0, 1},
        {QStringLiteral("throughput_per_minute"), QStringLiteral("throughputChart"),
            tr("Delivered vs failed per minute"), tr("no attempt history"), 1, 0},
        {QStringLiteral("error_categories"), QStringLiteral("categoryChart"),
            tr("Error categories"), tr("no error category"), 1, 1}};
    auto *grid = static_cast<QGridLayout *>(layout());
    for (const Chart &chart : charts) {
        if (!keys.contains(chart.key))
            continue;
        if (auto *view = findChild<QChartView *>(chart.view))
            view->hide();
        auto *label = new QLabel(
            tr("%1\nnot available for %2: %3").arg(chart.title, profileName, chart.missing));
        label->setObjectName(chart.view + QStringLiteral("NotAvailable"));
        label->setWordWrap(true);
        label->setAlignment(Qt::AlignCenter);
        label->setMinimumSize(300, 210);
        grid->addWidget(label, chart.row, chart.column);
    }
}
