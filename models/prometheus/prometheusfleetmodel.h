// The fleet view's rows read from Prometheus instead of each outbox's database: the columns,
// roles and severity order of FleetModel (so FleetProxy sorts and colours them alike), each row
// graded by HealthGrade from the figures `outboxctl serve` exports (PrometheusFleet), plus two
// sparkline columns: DEAD and the oldest pending age over the last PrometheusFleet::TrendHours.
// A PrometheusFleetWorker on its own thread reads every outbox with a few queries each interval
// (and the trends every 5 minutes); the GUI thread only merges the answer. An outbox the fleet
// file names that Prometheus has no series for is a row that says "no data for outbox NAME"; one
// that disappears from Prometheus stays, saying the same. When Prometheus cannot be read the rows
// keep their last figures, marked stale, and lastError() says why. Holds no database connection.
#pragma once

#include "alertdecider.h"
#include "fleetmodel.h"
#include "healthgrade.h"
#include "prometheusfleet.h"
#include "tilethresholds.h"
#include "workerthread.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QTimer>
#include <QUrl>
#include <memory>
#include <vector>

class PrometheusFleetWorker;

class PrometheusFleetModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { DeadTrendColumn = FleetModel::ColumnCount, OldestTrendColumn, ColumnCount };
    enum Role { TrendRole = FleetModel::DownRole + 1 }; // QList<double>, oldest point first
    // Prometheus scrapes every 15 s by default and serve reads each outbox as often: reading
    // faster would show the same figures.
    static constexpr int DefaultIntervalMs = 15000;
    // The trends' points are PrometheusFleet::TrendStepSeconds apart: read as often, no more.
    static constexpr int TrendIntervalMs = PrometheusFleet::TrendStepSeconds * 1000;

    explicit PrometheusFleetModel(const QUrl &url, QObject *parent = nullptr);
    ~PrometheusFleetModel() override;

    QUrl url() const { return m_url; }
    // The outboxes the fleet file names: a row each from the start, "no data" until Prometheus
    // has their series.
    void setExpected(const QStringList &names);
    void setThresholds(const TileThresholds &thresholds);
    void setInterval(int ms);
    void setTimeoutMs(int ms); // PrometheusClient::TimeoutMs by default
    void setMaxResponseBytes(qint64 bytes); // PrometheusClient::MaxResponseBytes by default
    // The first read at once, then every interval (the trends every 5 minutes).
    void start();
    void refreshNow();
    void refreshTrends(); // at once, besides the minute's
    // Every series of one outbox, read on the worker: detailRead().
    void readDetail(const QString &name);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    QString nameAt(int row) const;
    int rowOf(const QString &name) const; // -1 when none
    AlertDecider::State stateAt(int row) const;
    QString alertFigureAt(int row) const;
    // The last figures read, none before the first read or while Prometheus has none.
    std::optional<PrometheusOutbox> outboxAt(int row) const;
    PrometheusTrend trendAt(int row) const;
    // Why the last read failed (Prometheus unreachable, an HTTP error, not its JSON, too large,
    // too slow); empty once a read succeeds.
    QString lastError() const { return m_error; }
    bool hasRead() const { return m_reads > 0; }
    int reads() const { return m_reads; }

signals:
    void refreshed(); // a read arrived: every row may have changed
    void failed(const QString &error); // a read failed; lastError() holds it
    void trendsChanged();
    void detailRead(const QString &name, const QList<PrometheusResponse::Sample> &samples,
        const QString &error);

private:
    struct Row
    {
        QString name;
        std::optional<PrometheusOutbox> outbox; // none: no series in the last read
        HealthGrade grade;
        PrometheusTrend trend;
    };
    void onRead(const QList<PrometheusOutbox> &outboxes);
    void onFailed(const QString &error);
    void onTrends(const QHash<QString, PrometheusTrend> &trends);
    int addRow(const QString &name);
    void regrade();
    AlertDecider::State state(const Row &row) const;
    int severity(const Row &row) const;
    QVariant display(const Row &row, int column) const;
    QString statusText(const Row &row) const;
    QString worstText(const Row &row) const;
    QString refreshedText(const Row &row) const;
    QVariant cellLevel(const Row &row, int column) const;
    QVariant trendText(const Row &row, int column) const;

    QUrl m_url;
    FleetModel *m_headers; // the columns they share are named once, there
    std::vector<Row> m_rows;
    QHash<QString, int> m_index; // name -> row
    TileThresholds m_thresholds;
    QString m_error;
    int m_reads = 0;
    QTimer m_timer;
    QTimer m_trendTimer;
    std::unique_ptr<WorkerThread<PrometheusFleetWorker>> m_worker;
};
