// The dashboard's charts, each fed by an aggregate model: on top, the history of the chosen
// range (1 h, 24 h or 7 d, picked with three buttons): delivered vs failed attempts per bucket
// and the delivery latency's p50 / p95 / p99 per bucket; below, the snapshot's pending events
// by age, failures per event and error categories (through model mappers). Axes and labels
// follow every model reset; a bucket with no delivery has no latency point (never a 0).
#pragma once

#include "attemptlimit.h"
#include "page.h"

#include "deliveryhistory.h"

#include <QWidget>

class AgeHistogramModel;
class AttemptsHistogramModel;
class ErrorCategoryModel;
class HistoryModel;
class QButtonGroup;
class QGridLayout;
class QBarCategoryAxis;
class QChart;
class QChartView;
class QHorizontalBarSeries;
class QLineSeries;
class QPieSeries;
class QPieSlice;
class QStackedBarSeries;
class QValueAxis;

class OverviewPage : public QWidget, public Page
{
    Q_OBJECT
public:
    static inline const QString Key = QStringLiteral("overview");

    // The models are owned elsewhere and must outlive the panel.
    OverviewPage(AgeHistogramModel *ages, AttemptsHistogramModel *failures, HistoryModel *history,
        ErrorCategoryModel *categories, QWidget *parent = nullptr);

    // The history's range, as the buttons show it; setRange() emits rangeChanged when it
    // changes, as a click does.
    HistoryRange range() const { return m_range; }
    void setRange(HistoryRange range);

    // The attempt budget, shown on the failures chart: events reaching it are parked DEAD.
    // The relay's (setBudget), or the data's through a profile (AttemptLimit::range); "limit
    // unknown" otherwise, never guessed from the failures.
    // A teaching session's relay names its budget (setBudget) until followDataLimit().
    void setBudget(int attempts)
    {
        m_teachingBudget = true;
        setAttemptLimit(AttemptLimit::of(attempts, {}));
    }
    void followDataLimit() { m_teachingBudget = false; }
    void setAttemptLimit(const AttemptLimit &limit);
    AttemptLimit attemptLimit() const { return m_limit; }
    // Another library's table: each chart whose snapshot key (age_histogram,
    // attempts_histogram, throughput_per_minute, error_categories, delivery_latency_ms) the
    // schema cannot tell gives
    // way to a label "not available for <profile>: <what is missing>".
    void setNotAvailable(const QString &profileName, const QStringList &keys);
    // What each chart shows, in words (its accessible description), by its object name:
    // ageChart, failuresChart, categoryChart, throughputChart, latencyChart.
    QString summaryText(const QString &chartName) const;

    // The page contract (page.h).
    QWidget *focusTarget() const override; // the history's range buttons
    void outboxChanged(const HealthSnapshot &snapshot, bool figuresChanged) override;
    // Another library's table (the charts its schema cannot tell are labelled on the first
    // snapshot); empty: the native schema.
    void setProfileName(const QString &name) { m_profileName = name; }

signals:
    void rangeChanged(HistoryRange range);

private:
    QChartView *addChartView(QChart *chart, const QString &name, QGridLayout *grid, int row,
        int column, int columnSpan = 1);
    void setupRangePicker(QGridLayout *grid);
    void setupLatencyChart();
    void updateHistory();
    void updateLatencySeries();
    void setupAgeChart();
    void setupFailuresChart();
    void setupThroughputChart();
    void setupCategoryChart();

    void updateAgeAxes();
    void updateFailuresAxes();
    void updateCategoryTitle();
    void colourFailureSets();
    void decorateCategorySlices(const QList<QPieSlice *> &slices);
    void updateSummaries();
    void describe(const QString &view, const QString &name, const QString &summary);
    QString historySummary() const;
    bool isLogical() const; // the history was read on a simulator's logical clock
    qreal latencyScale() const;
    QString latencySummary() const;

    AgeHistogramModel *m_ages = nullptr;
    AttemptsHistogramModel *m_failures = nullptr;
    HistoryModel *m_history = nullptr;
    HistoryRange m_range = HistoryRange::Hour;
    QGridLayout *m_snapshotGrid = nullptr;
    QGridLayout *m_historyGrid = nullptr;
    QButtonGroup *m_rangeButtons = nullptr;
    QChart *m_throughputChart = nullptr;
    QChart *m_latencyChart = nullptr;
    QList<QLineSeries *> m_latencySeries; // p50, p95, p99
    QValueAxis *m_latencyAxisX = nullptr;
    QValueAxis *m_latencyAxisY = nullptr;
    ErrorCategoryModel *m_categories = nullptr;
    QString m_profileName;
    bool m_marked = false; // the charts the schema cannot tell are labelled, once
    AttemptLimit m_limit; // unknown until the relay or the data says
    bool m_teachingBudget = false; // a teaching session's relay names the budget, not the data

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
