#include "prometheusfleetmodel.h"

#include "plaintext.h"
#include "prometheusclient.h"
#include "prometheusfleetworker.h"
#include "timeformat.h"

#include <QDateTime>
#include <QLocale>

PrometheusFleetModel::PrometheusFleetModel(const QUrl &url, QObject *parent)
    : QAbstractTableModel(parent)
    , m_url(url)
    , m_headers(new FleetModel(this))
{
    qRegisterMetaType<QList<PrometheusOutbox>>();
    qRegisterMetaType<QHash<QString, PrometheusTrend>>();
    qRegisterMetaType<QList<PrometheusResponse::Sample>>();
    auto *worker = new PrometheusFleetWorker(url);
    connect(worker, &PrometheusFleetWorker::read, this, &PrometheusFleetModel::onRead);
    connect(worker, &PrometheusFleetWorker::failed, this, &PrometheusFleetModel::onFailed);
    connect(worker, &PrometheusFleetWorker::trendsRead, this, &PrometheusFleetModel::onTrends);
    connect(worker, &PrometheusFleetWorker::detailRead, this, &PrometheusFleetModel::detailRead);
    m_worker = std::make_unique<WorkerThread<PrometheusFleetWorker>>(
        QStringLiteral("fleet-prometheus"), worker);
    m_worker->start();
    m_timer.setInterval(DefaultIntervalMs);
    m_trendTimer.setInterval(TrendIntervalMs);
    connect(&m_timer, &QTimer::timeout, this, &PrometheusFleetModel::refreshNow);
    connect(&m_trendTimer, &QTimer::timeout, this, &PrometheusFleetModel::refreshTrends);
}

PrometheusFleetModel::~PrometheusFleetModel() = default;

void PrometheusFleetModel::setExpected(const QStringList &names)
{
    for (const QString &name : names) {
        if (!m_index.contains(name))
            addRow(name);
    }
}

int PrometheusFleetModel::addRow(const QString &name)
{
    const int row = int(m_rows.size());
    beginInsertRows({}, row, row);
    m_rows.push_back({name, std::nullopt, {}, {}});
    m_index.insert(name, row);
    endInsertRows();
    return row;
}

void PrometheusFleetModel::setThresholds(const TileThresholds &thresholds)
{
    m_thresholds = thresholds;
    regrade();
}

void PrometheusFleetModel::setInterval(int ms)
{
    m_timer.setInterval(ms);
}

void PrometheusFleetModel::setTimeoutMs(int ms)
{
    m_worker->post([ms](PrometheusFleetWorker *w) { w->setTimeoutMs(ms); });
}

void PrometheusFleetModel::setMaxResponseBytes(qint64 bytes)
{
    m_worker->post([bytes](PrometheusFleetWorker *w) { w->setMaxResponseBytes(bytes); });
}

void PrometheusFleetModel::start()
{
    refreshNow();
    m_timer.start();
    m_trendTimer.start();
    refreshTrends();
}

void PrometheusFleetModel::refreshTrends()
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    m_worker->post([now](PrometheusFleetWorker *w) { w->refreshTrends(now); });
}

void PrometheusFleetModel::refreshNow()
{
    m_worker->post([](PrometheusFleetWorker *w) { w->refresh(); });
}

void PrometheusFleetModel::readDetail(const QString &name)
{
    m_worker->post([name](PrometheusFleetWorker *w) { w->readDetail(name); });
}

void PrometheusFleetModel::onRead(const QList<PrometheusOutbox> &outboxes)
{
    for (Row &row : m_rows)
        row.outbox.reset(); // gone from Prometheus: "no data", until it comes back
    for (const PrometheusOutbox &outbox : outboxes) {
        const int row
            = m_index.contains(outbox.name) ? m_index.value(outbox.name) : addRow(outbox.name);
        m_rows[size_t(row)].outbox = outbox;
    }
    m_error.clear();
    ++m_reads;
    regrade();
    emit refreshed();
}

void PrometheusFleetModel::onFailed(const QString &error)
{
    m_error = error;
    if (!m_rows.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    emit failed(error);
}

void PrometheusFleetModel::onTrends(const QHash<QString, PrometheusTrend> &trends)
{
    for (Row &row : m_rows)
        row.trend = trends.value(row.name);
    if (!m_rows.empty())
        emit dataChanged(index(0, DeadTrendColumn), index(rowCount() - 1, OldestTrendColumn));
    emit trendsChanged();
}

void PrometheusFleetModel::regrade()
{
    for (Row &row : m_rows)
        row.grade = row.outbox && row.outbox->up
            ? HealthGrade::of(row.outbox->snapshot, m_thresholds)
            : HealthGrade();
    if (!m_rows.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

int PrometheusFleetModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int PrometheusFleetModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString PrometheusFleetModel::nameAt(int row) const
{
    return m_rows.at(size_t(row)).name;
}

int PrometheusFleetModel::rowOf(const QString &name) const
{
    return m_index.value(name, -1);
}

std::optional<PrometheusOutbox> PrometheusFleetModel::outboxAt(int row) const
{
    return m_rows.at(size_t(row)).outbox;
}

PrometheusTrend PrometheusFleetModel::trendAt(int row) const
{
    return m_rows.at(size_t(row)).trend;
}

AlertDecider::State PrometheusFleetModel::stateAt(int row) const
{
    return state(m_rows.at(size_t(row)));
}

AlertDecider::State PrometheusFleetModel::state(const Row &r) const
{
    if (m_reads == 0)
        return AlertDecider::State::Unknown;
    if (!r.outbox || !r.outbox->up)
        return AlertDecider::State::Down;
    return AlertDecider::ofGrade(r.grade.level);
}

QString PrometheusFleetModel::alertFigureAt(int row) const
{
    const Row &r = m_rows.at(size_t(row));
    return r.outbox && r.outbox->up ? r.grade.figure : worstText(r);
}

int PrometheusFleetModel::severity(const Row &row) const
{
    switch (state(row)) {
    case AlertDecider::State::Down:
        return 4;
    case AlertDecider::State::Red:
        return 3;
    case AlertDecider::State::Amber:
        return 2;
    case AlertDecider::State::Unknown:
        return 1;
    case AlertDecider::State::Healthy:
        break;
    }
    return 0;
}

QString PrometheusFleetModel::statusText(const Row &row) const
{
    if (m_reads == 0)
        return m_error.isEmpty() ? tr("waiting…") : tr("unknown");
    if (!row.outbox)
        return tr("no data");
    return row.outbox->up ? tr("up") : tr("down");
}

// The worst figure; for a row without current figures, why.
QString PrometheusFleetModel::worstText(const Row &row) const
{
    if (m_reads == 0)
        return m_error.isEmpty() ? QStringLiteral("—") : m_error;
    if (!row.outbox)
        return tr("no data for outbox %1").arg(row.name);
    if (!row.outbox->up)
        return tr("serve cannot read it (outbox_up 0; serve's log says why)");
    return row.grade.level == HealthGrade::Level::Normal ? tr("healthy") : row.grade.figure;
}

QString PrometheusFleetModel::refreshedText(const Row &row) const
{
    if (!row.outbox || row.outbox->scrapedAtMs <= 0)
        return QStringLiteral("—");
    const QString time = QDateTime::fromMSecsSinceEpoch(row.outbox->scrapedAtMs)
                             .toString(QStringLiteral("HH:mm:ss"));
    return m_error.isEmpty() ? time : tr("%1 (stale)").arg(time);
}

// "0 → 3": the trend's first and last points, for whoever cannot see the line.
QVariant PrometheusFleetModel::trendText(const Row &row, int column) const
{
    const QList<double> &points
        = column == DeadTrendColumn ? row.trend.dead : row.trend.oldestPendingSeconds;
    if (points.isEmpty())
        return QStringLiteral("—");
    const auto text = [column](double value) {
        return column == DeadTrendColumn ? QLocale().toString(qint64(value))
                                         : TimeFormat::age(qint64(value * 1000));
    };
    return QStringLiteral("%1 → %2").arg(text(points.constFirst()), text(points.constLast()));
}

QVariant PrometheusFleetModel::display(const Row &row, int column) const
{
    const bool figures = row.outbox && row.outbox->up;
    const HealthSnapshot *snapshot = figures ? &row.outbox->snapshot : nullptr;
    const auto known = [snapshot](const QString &key, qint64 value) -> QVariant {
        if (!snapshot)
            return QStringLiteral("—");
        return snapshot->isAvailable(key) ? QVariant(QLocale().toString(value))
                                          : QVariant(QStringLiteral("n/a"));
    };
    switch (column) {
    case FleetModel::NameColumn:
        return row.name;
    case FleetModel::EnvironmentColumn:
        return QString();
    case FleetModel::StatusColumn:
        return statusText(row);
    case FleetModel::WorstColumn:
        return worstText(row);
    case FleetModel::DueColumn:
        return known(QStringLiteral("due"), snapshot ? snapshot->counts.due : 0);
    case FleetModel::DeadColumn:
        return known(QStringLiteral("dead"), snapshot ? snapshot->counts.dead : 0);
    case FleetModel::OldestPendingColumn:
        if (!snapshot)
            return QStringLiteral("—");
        if (!snapshot->isAvailable(QStringLiteral("oldest_pending_age_ms")))
            return QStringLiteral("n/a");
        return snapshot->oldestPendingAgeMs ? TimeFormat::age(*snapshot->oldestPendingAgeMs)
                                            : tr("none pending");
    case FleetModel::DiagnosisColumn:
        return QStringLiteral("—"); // a diagnosis reads the database: the outbox's window
    case FleetModel::RefreshedColumn:
        return refreshedText(row);
    case DeadTrendColumn:
    case OldestTrendColumn:
        return trendText(row, column);
    default:
        return {};
    }
}

QVariant PrometheusFleetModel::cellLevel(const Row &row, int column) const
{
    if (!row.outbox || !row.outbox->up)
        return {};
    const HealthSnapshot &s = row.outbox->snapshot;
    switch (column) {
    case FleetModel::DueColumn:
        return int(HealthGrade::levelOf(s.counts.due, m_thresholds.due));
    case FleetModel::DeadColumn:
        return int(HealthGrade::levelOf(s.counts.dead, m_thresholds.dead));
    case FleetModel::OldestPendingColumn:
        return s.oldestPendingAgeMs
            ? int(HealthGrade::levelOf(*s.oldestPendingAgeMs, m_thresholds.oldestPendingMs))
            : int(HealthGrade::Level::Normal);
    case FleetModel::DiagnosisColumn:
        return {};
    default:
        return int(row.grade.level);
    }
}

QVariant PrometheusFleetModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(size_t(index.row()));
    switch (role) {
    case Qt::DisplayRole: {
        const QVariant text = display(row, index.column());
        return text.typeId() == QMetaType::QString ? QVariant(PlainText::escaped(text.toString()))
                                                   : text;
    }
    case Qt::ToolTipRole:
        if (index.column() == FleetModel::DiagnosisColumn)
            return tr("Read through Prometheus: a diagnosis needs the database (the outbox's own "
                      "window)");
        if (index.column() == FleetModel::StatusColumn || index.column() == FleetModel::NameColumn)
            return PlainText::toolTip(tr("%1 through Prometheus at %2")
                                          .arg(row.name, PrometheusClient::displayUrl(m_url)));
        return {};
    case FleetModel::SeverityRole:
        return severity(row);
    case FleetModel::LevelRole:
        return cellLevel(row, index.column());
    case FleetModel::EnvironmentColourRole:
        return QString();
    case FleetModel::DownRole:
        return m_reads > 0 && (!row.outbox || !row.outbox->up);
    case TrendRole:
        if (index.column() == DeadTrendColumn)
            return QVariant::fromValue(row.trend.dead);
        if (index.column() == OldestTrendColumn)
            return QVariant::fromValue(row.trend.oldestPendingSeconds);
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == FleetModel::DueColumn || index.column() == FleetModel::DeadColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default:
        return {};
    }
}

QVariant PrometheusFleetModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::DisplayRole && section == DeadTrendColumn)
        return tr("DEAD, %1 h").arg(PrometheusFleet::TrendHours);
    if (orientation == Qt::Horizontal && role == Qt::DisplayRole && section == OldestTrendColumn)
        return tr("Oldest pending, %1 h").arg(PrometheusFleet::TrendHours);
    if (orientation == Qt::Horizontal && role == Qt::DisplayRole
        && section < FleetModel::ColumnCount)
        return m_headers->headerData(section, orientation, role);
    return QAbstractTableModel::headerData(section, orientation, role);
}
