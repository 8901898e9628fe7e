// The fleet view: one row per outbox of a fleet file (FleetModel, each outbox read by its own
// worker every 5 s), worst first (FleetProxy), an alert bar for desktop alerts where there is no
// tray, and a status line counting what is down, red and amber. Double-click (or Enter, or
// Open in the row's menu) asks for that outbox's own window; the row's menu also mutes its
// alerts. Through Prometheus (openPrometheus(), or a fleet file's `prometheus=URL` line) the rows
// come from PrometheusFleetModel instead, with two sparkline columns; a row opens its outbox's
// own window when the file has a URL for its name, else a read-only detail from Prometheus.
#pragma once

#include <QHash>
#include <QMainWindow>
#include <QPointer>

class AlertBar;
class DesktopAlerts;
class FleetModel;
class FleetProxy;
class PrometheusDetailDialog;
class PrometheusFleetModel;
class QLabel;
class QTableView;

class FleetWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit FleetWindow(QWidget *parent = nullptr);
    ~FleetWindow() override;

    // Reads the fleet file off the GUI thread (FleetModel::loadFile), then starts reading every
    // outbox: opened(), or openFailed(error) when the file cannot be read; a line that does not
    // parse is a row that says why.
    void openFile(const QString &path);
    // Reads every outbox from the Prometheus at `url` (fleet.md); the file at `path`, when
    // given, names the outboxes to expect and the URLs of those a row may open. A URL that is
    // not one: openFailed(error).
    void openPrometheus(const QString &url, const QString &path = {});

    FleetModel *model() const { return m_model; }
    // Null unless the fleet is read through Prometheus.
    PrometheusFleetModel *prometheusModel() const { return m_prometheus; }
    // The detail openRow() opened last (a row without a URL, through Prometheus), or null.
    PrometheusDetailDialog *detailDialog() const;
    FleetProxy *proxy() const { return m_proxy; }
    QTableView *view() const { return m_view; }
    AlertBar *alertBar() const { return m_alertBar; }
    DesktopAlerts *alerts() const { return m_alerts; }
    QString summary() const; // the status line's text
    void openRow(int viewRow); // as a double-click on that row of the view

signals:
    // A configured outbox to open in its own window (a row of model()).
    void outboxOpenRequested(int modelRow);
    void fleetRequested(); // File › Open fleet…
    void opened(); // openFile() read the file; the outboxes are being read
    void openFailed(const QString &error); // openFile() could not read the file (no password)

private:
    void setupMenus();
    void setupTable();
    void showRowMenu(const QPoint &pos);
    void onOutboxUpdated(int row);
    void updateSummary();
    void applyEnvironments();
    void onLoaded();
    void startPrometheus(const QString &url);
    void onPrometheusRefreshed();
    void openPrometheusRow(int row);
    QString prometheusSummary(const QString &counts) const;
    QString nameAt(int sourceRow) const;
    bool isOutboxRow(int sourceRow) const;

    FleetModel *m_model = nullptr;
    FleetProxy *m_proxy = nullptr;
    QTableView *m_view = nullptr;
    AlertBar *m_alertBar = nullptr;
    DesktopAlerts *m_alerts = nullptr;
    QLabel *m_summary = nullptr;
    QString m_path; // the file openFile() reads
    QString m_prometheusUrl; // --fleet-prometheus's, over the file's line
    PrometheusFleetModel *m_prometheus = nullptr;
    QPointer<PrometheusDetailDialog> m_detail;
    // Through Prometheus, per outbox: what the alerts were last told (state and figure) and when
    // (ms since the epoch): unchanged rows are told again at most once a minute (reminders).
    QHash<QString, QPair<QString, qint64>> m_observed;
};
