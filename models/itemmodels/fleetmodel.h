// The fleet view's table: one row per outbox of a fleet file (the format of `outboxctl serve
// --config`, FleetConfig), each read by a HealthMonitor of its own (its own thread and
// connection, healing after a restart, stale answers dropped) every 5 s. A line of the file
// that does not parse becomes a row that says why; the others are read as usual. Columns: name,
// environment, up/down, the worst figure with its tile level (HealthGrade) or, down, the cause,
// due, DEAD, oldest pending (the last figures while down: "—"), the diagnosis's headline
// (DiagnosisResult::headline, at most once a minute and whenever the row's level changes),
// last refresh. SeverityRole orders
// worst first (down and errors, red, amber, waiting, healthy); the view sorts on it. The
// environment (a name and a colour name) is the view's to tell: the model only keeps it.
#pragma once

#include "alertdecider.h"
#include "fleetconfig.h"
#include "healthgrade.h"
#include "outboxprofile.h"
#include "tilethresholds.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <memory>
#include <vector>

class DiagnosisMonitor;
class QThread;
class HealthMonitor;
struct HealthSnapshot;

class FleetModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        EnvironmentColumn,
        StatusColumn,
        WorstColumn,
        DueColumn,
        DeadColumn,
        OldestPendingColumn,
        DiagnosisColumn,
        RefreshedColumn,
        ColumnCount
    };
    enum Role {
        SeverityRole
        = Qt::UserRole, // int: 4 down or not configured, 3 red, 2 amber, 1 waiting, 0 healthy
        LevelRole, // int: HealthGrade::Level of the row (and of the cell, for due/DEAD/oldest)
        EnvironmentColourRole, // QString: "#cf222e", empty when none
        DownRole, // bool: no current figures (down, not configured)
    };
    static constexpr int DefaultIntervalMs = 5000;
    // A row's diagnosis follows its snapshots at most this often (DiagnosisMonitor, on the
    // outbox's own thread): a diagnosis costs a few snapshots, and twenty of them every 5 s
    // would cost each database more than an open window does. A row whose level changes is
    // diagnosed again at once.
    static constexpr int DiagnosisSpacingMs = 60000;

    explicit FleetModel(QObject *parent = nullptr);
    ~FleetModel() override;

    // Reads the file and the profile files its lines name on a thread of its own (the GUI thread
    // never waits on a file), then replaces the fleet by its outboxes (a malformed line: an
    // error row) and emits loaded(); loadFailed(error) instead when the file cannot be read at
    // all (FleetConfig::readLines: not a regular file, larger than FleetConfig::MaxFileBytes,
    // or holding a password others may read).
    void loadFile(const QString &path);
    // Replaces the fleet by these lines (as in a file; `source` names it in error rows) at
    // once; a profile file a line names is read on the calling thread.
    void setLines(const QStringList &lines, const QString &source = {});
    // The file's `prometheus=URL` line (FleetConfig::prometheusUrl), empty when none; set when
    // the file is read, before loaded().
    QString prometheusUrl() const { return m_prometheusUrl; }
    // With a Prometheus to read instead (the file's `prometheus=` line, or this set before the
    // file is read: --fleet-prometheus), the entries are only a book of URLs by name (entryAt,
    // rowOf): no outbox is read from here and no connection opened.
    void setUrlBookOnly(bool bookOnly) { m_bookOnly = bookOnly; }
    bool isUrlBookOnly() const { return m_bookOnly || !m_prometheusUrl.isEmpty(); }
    void setThresholds(const TileThresholds &thresholds);
    void setInterval(int ms);
    // Starts every monitor (first snapshot at once, then every interval).
    void start();
    void setEnvironment(int row, const QString &name, const QString &colour);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    // Configured rows only (not error rows).
    bool isConfigured(int row) const;
    const FleetEntry &entryAt(int row) const;
    std::optional<OutboxProfile> profileAt(int row) const;
    HealthMonitor *monitorAt(int row) const;
    DiagnosisMonitor *diagnosisAt(int row) const;
    QString nameAt(int row) const;
    int rowOf(const QString &name) const; // a configured row's, -1 when none
    // What an alert needs: the state and the worst figure (red, amber) or the cause (down, as
    // HealthMonitor::failureHeadline words it).
    AlertDecider::State stateAt(int row) const;
    QString alertFigureAt(int row) const;

signals:
    // A row's figures or state changed (a snapshot, stale or current again).
    void outboxUpdated(int row);
    void loaded(); // loadFile() replaced the fleet
    void loadFailed(const QString &error); // loadFile() read nothing; the fleet is unchanged

private:
    struct Row;
    // A line of a fleet, parsed: an entry, or why not (`where` names the line).
    struct Line
    {
        QString where;
        std::optional<FleetEntry> entry;
        QString error;
        QString prometheusUrl; // a `prometheus=` line's
    };
    static QList<Line> parseLines(const QStringList &lines, const QString &source);
    void setParsed(const QList<Line> &lines);
    void stopAll();
    void addEntry(const FleetEntry &entry);
    void addError(const QString &name, const QString &error);
    void onUpdated(const Row *row);
    int severity(const Row &row) const;
    QVariant display(const Row &row, int column) const;
    QString statusText(const Row &row) const;
    QString worstText(const Row &row) const;
    QString refreshedText(const Row &row) const;
    QString diagnosisText(const Row &row) const;
    QString diagnosisToolTip(const Row &row) const;
    QVariant cellLevel(const Row &row, int column) const;

    std::vector<std::unique_ptr<Row>> m_rows;
    std::unique_ptr<QThread> m_loader; // loadFile()'s reads
    int m_loads = 0; // loadFile() calls: only the newest one's answer is applied
    TileThresholds m_thresholds;
    int m_interval = DefaultIntervalMs;
    QString m_prometheusUrl;
    bool m_bookOnly = false;
};
