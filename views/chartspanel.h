// The dashboard's four small charts in a 2x2 grid, each fed by an aggregate model through a
// model mapper: pending events by age, failures per event, throughput over the last hour and
// error categories. Axes and category labels follow every model reset.
#pragma once

#include <QWidget>

class AgeHistogramModel;
class AttemptsHistogramModel;
class ErrorCategoryModel;
class ThroughputModel;
class QBarCategoryAxis;
class QChart;
class QChartView;
class QHorizontalBarSeries;
class QLineSeries;
class QPieSeries;
class QPieSlice;
class QStackedBarSeries;
class QValueAxis;

class ChartsPanel : public QWidget
{
    Q_OBJECT
public:
    // The models are owned elsewhere and must outlive the panel.
    ChartsPanel(AgeHistogramModel *ages, AttemptsHistogramModel *failures,
        ThroughputModel *throughput, ErrorCategoryModel *categories, QWidget *parent = nullptr);

    // The attempt budget, shown on the failures chart: events reaching it are parked DEAD.
    void setBudget(int attempts);
    int budget() const { return m_budget; }
    // Another library's table: each chart whose snapshot key (age_histogram,
    // attempts_histogram, throughput_per_minute, error_categories) the schema cannot tell gives
    // way to a label "not available for <profile>: <what is missing>".
    void setNotAvailable(const QString &profileName, const QStringList &keys);

private:
    QChartView *addChartView(QChart *chart, const QString &name, int row, int column);
    void setupAgeChart();
    void setupFailuresChart();
    void setupThroughputChart();
    void setupCategoryChart();

    void updateAgeAxes();
    void updateFailuresAxes();
    void updateThroughputAxes();
    void updateCategoryTitle();
    void colourFailureSets();
    void decorateCategorySlices(const QList<QPieSlice *> &slices);

    AgeHistogramModel *m_ages = nullptr;
    AttemptsHistogramModel *m_failures = nullptr;
    ThroughputModel *m_throughput = nullptr;
    ErrorCategoryModel *m_categories = nullptr;
    int m_budget = 3;

    QHorizontalBarSeries *m_ageSeries = nullptr;
    QBarCategoryAxis *m_ageBuckets = nullptr;
    QValueAxis *m_ageCounts = nullptr;
    QChart *m_failuresChart = nullptr;
    QStackedBarSeries *m_failuresSeries = nullptr;
    QBarCategoryAxis *m_failuresAxisX = nullptr;
    QValueAxis *m_failuresAxisY = nullptr;
    QValueAxis *m_throughputAxisX = nullptr;
    QValueAxis *m_throughputAxisY = nullptr;
    QChart *m_categoryChart = nullptr;
    QPieSeries *m_categorySeries = nullptr;
};
