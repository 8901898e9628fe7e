#include "fleetmodel.h"

#include "diagnosismonitor.h"
#include "failurecause.h"
#include "healthmonitor.h"
#include "healthworker.h"
#include "plaintext.h"
#include "profileregistry.h"
#include "timeformat.h"

#include <QLocale>
#include <QThread>
#include <QTimer>

struct FleetModel::Row
{
    QString name;
    std::optional<FleetEntry> entry; // none: a line that does not parse
    std::optional<OutboxProfile> profile;
    QString error; // why the line does not parse
    std::unique_ptr<HealthMonitor> monitor;
    // Follows the monitor's snapshots on its thread; declared after it, so it goes first.
    std::unique_ptr<DiagnosisMonitor> diagnosis;
    HealthGrade grade; // of the last snapshot
    bool graded = false; // a snapshot has been graded
    QString environment;
    QString environmentColour;
};

FleetModel::FleetModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

FleetModel::~FleetModel()
{
    if (m_loader)
        m_loader->wait();
    stopAll();
}

// Each monitor waits for its snapshot under way when it goes: told to stop all at once first, the
// fleet waits for the slowest one, not for the sum of them.
void FleetModel::stopAll()
{
    for (const auto &row : m_rows) {
        if (row->monitor) {
            row->monitor->pause();
            row->monitor->workerThread()->quit();
        }
    }
    m_rows.clear();
}

void FleetModel::loadFile(const QString &path)
{
    if (m_loader)
        m_loader->wait(); // the previous file's reads: a few bounded regular files, if any
    struct Result
    {
        std::optional<QList<Line>> lines;
        QString error;
    };
    auto result = std::make_shared<Result>();
    m_loader.reset(QThread::create([path, result] {
        if (const std::optional<QStringList> lines = FleetConfig::readLines(path, &result->error))
            result->lines = parseLines(*lines, path);
    }));
    m_loader->setObjectName(QStringLiteral("fleet-loader"));
    const int load = ++m_loads;
    connect(m_loader.get(), &QThread::finished, this, [this, result, load] {
        if (load != m_loads)
            return; // a later loadFile() replaces this one
        if (!result->lines) {
            emit loadFailed(DatabaseUrl::maskPasswords(result->error));
            return;
        }
        setParsed(*result->lines);
        emit loaded();
    });
    m_loader->start();
}

void FleetModel::setLines(const QStringList &lines, const QString &source)
{
    setParsed(parseLines(lines, source));
}

// Each line on its own (FleetConfig::Parser), so that one bad line leaves the others read; past
// FleetConfig::MaxOutboxes lines, one error line says so and the rest is not read. Runs on any
// thread: it reads the profile files the lines name.
QList<FleetModel::Line> FleetModel::parseLines(const QStringList &lines, const QString &source)
{
    QList<Line> parsed;
    FleetConfig::Parser parser;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = lines.at(i).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        if (const std::optional<QString> url = FleetConfig::prometheusUrl(line)) {
            parsed.append({{}, std::nullopt, {}, *url});
            continue;
        }
        Line result;
        result.where
            = source.isEmpty() ? tr("line %1").arg(i + 1) : source + u':' + QString::number(i + 1);
        const bool full = parser.isFull();
        result.entry = parser.parse(line, &result.error);
        parsed.append(std::move(result));
        if (full)
            break;
    }
    return parsed;
}

void FleetModel::setParsed(const QList<Line> &lines)
{
    beginResetModel();
    stopAll();
    m_prometheusUrl.clear();
    for (const Line &line : lines) {
        if (!line.prometheusUrl.isEmpty() && m_prometheusUrl.isEmpty())
            m_prometheusUrl = line.prometheusUrl;
    }
    for (const Line &line : lines) {
        if (!line.prometheusUrl.isEmpty())
            continue;
        if (line.entry)
            addEntry(*line.entry);
        else
            addError(line.where, line.error);
    }
    endResetModel();
}

void FleetModel::addError(const QString &name, const QString &error)
{
    auto row = std::make_unique<Row>();
    row->name = name;
    row->error = DatabaseUrl::maskPasswords(error);
    m_rows.push_back(std::move(row));
}

void FleetModel::addEntry(const FleetEntry &entry)
{
    auto row = std::make_unique<Row>();
    row->name = entry.name;
    row->entry = entry;
    row->profile = entry.resolvedProfile; // read once, when the line was parsed
    if (isUrlBookOnly()) {
        m_rows.push_back(std::move(row));
        return;
    }
    // As the window: the native schema is validated when the connection opens, another one is
    // read through its profile (a line without one is detected, and validated, on the worker).
    OpenOptions options = HealthWorker::defaultOpenOptions();
    options.validateSchema = !row->profile || row->profile->isNative();
    row->monitor = std::make_unique<HealthMonitor>(entry.url, options);
    row->monitor->setInterval(m_interval);
    row->monitor->setSummaryOnly(); // the row shows the grade's figures, nothing else
    // `;cdc-slot=`, else the profile's cdc_slot: read with each snapshot.
    const QString slot = OutboxProfile::cdcSlotFor(entry.cdcSlot.value_or(QString()), row->profile);
    if (!slot.isEmpty())
        row->monitor->setCdcSlot(slot);
    options.validateSchema = false; // the snapshot's connection has
    row->diagnosis = std::make_unique<DiagnosisMonitor>(row->monitor.get(), entry.url, options);
    row->diagnosis->setMinimumSpacingMs(DiagnosisSpacingMs);
    row->diagnosis->setTileThresholds(m_thresholds); // dead_events agrees with the row's grade
    if (row->profile) {
        row->monitor->setProfile(*row->profile);
        row->diagnosis->setProfile(*row->profile);
    } else if (!entry.profile) {
        row->monitor->detectProfile(); // as serve and `outboxctl --db URL` do
    }
    Row *raw = row.get();
    // Told before the snapshot that follows it (both queued from the health thread), so the
    // diagnosis that snapshot asks for reads the detected schema.
    connect(row->monitor.get(), &HealthMonitor::profileDetected, this, [raw](const QString &name) {
        QString ignored;
        raw->profile = name.isEmpty() ? std::nullopt : ProfileRegistry::resolve(name, &ignored);
        if (raw->profile)
            raw->diagnosis->setProfile(*raw->profile);
    });
    connect(row->diagnosis.get(), &DiagnosisMonitor::resultChanged, this,
        [this, raw] { onUpdated(raw); });
    connect(row->diagnosis.get(), &DiagnosisMonitor::failed, this, [this, raw] { onUpdated(raw); });
    connect(row->monitor.get(), &HealthMonitor::snapshotChanged, this,
        [this, raw](const HealthSnapshot &snapshot) {
            const HealthGrade grade = HealthGrade::of(snapshot, m_thresholds);
            const bool crossed = raw->graded && grade.level != raw->grade.level;
            raw->grade = grade;
            raw->graded = true;
            // A row that changes colour is diagnosed again at once, not up to a minute later.
            if (crossed)
                raw->diagnosis->requestSoon(snapshot.now);
            onUpdated(raw);
        });
    connect(row->monitor.get(), &HealthMonitor::healthStateChanged, this,
        [this, raw] { onUpdated(raw); });
    m_rows.push_back(std::move(row));
}

void FleetModel::onUpdated(const Row *row)
{
    for (size_t i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].get() == row) {
            emit dataChanged(index(int(i), 0), index(int(i), ColumnCount - 1));
            emit outboxUpdated(int(i));
            return;
        }
    }
}

void FleetModel::setThresholds(const TileThresholds &thresholds)
{
    m_thresholds = thresholds;
    for (const auto &row : m_rows) {
        if (row->diagnosis)
            row->diagnosis->setTileThresholds(m_thresholds);
        if (row->monitor && row->monitor->hasSnapshot())
            row->grade = HealthGrade::of(row->monitor->snapshot(), m_thresholds);
    }
    if (!m_rows.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

void FleetModel::setInterval(int ms)
{
    m_interval = ms;
    for (const auto &row : m_rows) {
        if (row->monitor)
            row->monitor->setInterval(ms);
    }
}

// Every outbox is read at once, then each on a timer of its own started a share of the
// interval after the one before: the fleet's snapshots are spread over the interval instead of
// twenty arriving together, so neither the database server nor the GUI thread gets them in one
// burst (and a snapshot's database time is not stretched by nineteen others running beside it).
void FleetModel::start()
{
    QList<HealthMonitor *> monitors;
    for (const auto &row : m_rows) {
        if (row->monitor)
            monitors.append(row->monitor.get());
    }
    for (qsizetype i = 0; i < monitors.size(); ++i) {
        HealthMonitor *monitor = monitors.at(i);
        monitor->refreshNow();
        const int offset = int(qint64(m_interval) * (i + 1) / (monitors.size() + 1));
        QTimer::singleShot(offset, monitor, [monitor] {
            if (monitor->isPaused())
                monitor->resume(); // the next refresh now, then every interval from here
        });
    }
}

void FleetModel::setEnvironment(int row, const QString &name, const QString &colour)
{
    m_rows.at(size_t(row))->environment = name;
    m_rows.at(size_t(row))->environmentColour = colour;
    emit dataChanged(index(row, EnvironmentColumn), index(row, EnvironmentColumn));
}

int FleetModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int FleetModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

bool FleetModel::isConfigured(int row) const
{
    return m_rows.at(size_t(row))->entry.has_value();
}

const FleetEntry &FleetModel::entryAt(int row) const
{
    return *m_rows.at(size_t(row))->entry;
}

std::optional<OutboxProfile> FleetModel::profileAt(int row) const
{
    return m_rows.at(size_t(row))->profile;
}

HealthMonitor *FleetModel::monitorAt(int row) const
{
    return m_rows.at(size_t(row))->monitor.get();
}

DiagnosisMonitor *FleetModel::diagnosisAt(int row) const
{
    return m_rows.at(size_t(row))->diagnosis.get();
}

QString FleetModel::nameAt(int row) const
{
    return m_rows.at(size_t(row))->name;
}

int FleetModel::rowOf(const QString &name) const
{
    for (size_t i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i]->entry && m_rows[i]->name == name)
            return int(i);
    }
    return -1;
}

AlertDecider::State FleetModel::stateAt(int row) const
{
    const Row &r = *m_rows.at(size_t(row));
    if (!r.monitor)
        return AlertDecider::State::Unknown; // not configured: nothing to alert about
    if (r.monitor->isStale())
        return AlertDecider::State::Down;
    if (!r.monitor->hasSnapshot())
        return AlertDecider::State::Unknown;
    return AlertDecider::ofGrade(r.grade.level);
}

QString FleetModel::alertFigureAt(int row) const
{
    const Row &r = *m_rows.at(size_t(row));
    if (r.monitor && r.monitor->isStale())
        return r.monitor->failureHeadline(); // as the outbox's own window words it
    return r.grade.figure;
}

int FleetModel::severity(const Row &row) const
{
    if (!row.monitor || row.monitor->isStale())
        return 4;
    if (!row.monitor->hasSnapshot())
        return 1;
    switch (row.grade.level) {
    case HealthGrade::Level::Red:
        return 3;
    case HealthGrade::Level::Amber:
        return 2;
    case HealthGrade::Level::Normal:
        break;
    }
    return 0;
}

QString FleetModel::statusText(const Row &row) const
{
    if (!row.monitor)
        return tr("not configured");
    if (row.monitor->isStale())
        return tr("down");
    return row.monitor->hasSnapshot() ? tr("up") : tr("waiting…");
}

// The worst figure; for a row without current figures, why (never a password).
QString FleetModel::worstText(const Row &row) const
{
    if (!row.monitor)
        return row.error;
    if (row.monitor->isStale() && row.monitor->isAuthenticationFailure())
        return tr("%1; tries back off, next in %2")
            .arg(row.monitor->lastFailure(),
                FailureCause::waitText(row.monitor->currentRetryDelayMs()));
    if (row.monitor->isStale())
        return row.monitor->lastFailure();
    if (!row.monitor->hasSnapshot())
        return QStringLiteral("—");
    return row.grade.level == HealthGrade::Level::Normal ? tr("healthy") : row.grade.figure;
}

QString FleetModel::refreshedText(const Row &row) const
{
    if (!row.monitor || !row.monitor->lastGoodAt().isValid())
        return QStringLiteral("—");
    const QString time = row.monitor->lastGoodAt().toString(QStringLiteral("HH:mm:ss"));
    return row.monitor->isStale() ? tr("%1 (stale)").arg(time) : time;
}

// The newest diagnosis's headline ("2 findings: relay stalled, retry herd"); "—" while down
// or before the first one.
QString FleetModel::diagnosisText(const Row &row) const
{
    if (!row.diagnosis || row.monitor->isStale())
        return QStringLiteral("—");
    if (!row.diagnosis->lastError().isEmpty())
        return tr("diagnosis failed");
    if (!row.diagnosis->hasResult())
        return row.diagnosis->isRunning() ? tr("diagnosing…") : QStringLiteral("—");
    return row.diagnosis->result().headline();
}

// Each finding's sentence, and when it was made.
QString FleetModel::diagnosisToolTip(const Row &row) const
{
    if (!row.diagnosis || row.monitor->isStale())
        return {};
    if (!row.diagnosis->lastError().isEmpty())
        return tr("The newest diagnosis could not run: %1")
            .arg(DatabaseUrl::maskPasswords(row.diagnosis->lastError()));
    if (!row.diagnosis->hasResult())
        return {};
    QStringList lines;
    for (const Finding &finding : row.diagnosis->result().findings)
        lines << QStringLiteral("%1: %2").arg(
            Finding::severityName(finding.severity).toUpper(), finding.summary);
    lines << tr("Diagnosed at %1 (at most once a minute; the outbox's window diagnoses at each "
                "refresh)")
                 .arg(row.diagnosis->resultAt().toString(QStringLiteral("HH:mm:ss")));
    return lines.join(QLatin1Char('\n'));
}

// The worst finding's severity as a level: critical red, warning amber.
static int diagnosisLevel(const DiagnosisResult &result)
{
    if (result.findings.isEmpty())
        return int(HealthGrade::Level::Normal);
    switch (result.findings.constFirst().severity) {
    case Finding::Severity::Critical:
        return int(HealthGrade::Level::Red);
    case Finding::Severity::Warning:
        return int(HealthGrade::Level::Amber);
    case Finding::Severity::Info:
        break;
    }
    return int(HealthGrade::Level::Normal);
}

QVariant FleetModel::display(const Row &row, int column) const
{
    const bool figures = row.monitor && row.monitor->hasSnapshot() && !row.monitor->isStale();
    const HealthSnapshot *snapshot = figures ? &row.monitor->snapshot() : nullptr;
    const auto known = [snapshot](const QString &key, qint64 value) -> QVariant {
        if (!snapshot)
            return QStringLiteral("—");
        return snapshot->isAvailable(key) ? QVariant(QLocale().toString(value))
                                          : QVariant(QStringLiteral("n/a"));
    };
    switch (column) {
    case NameColumn:
        return row.name;
    case EnvironmentColumn:
        return row.environment;
    case StatusColumn:
        return statusText(row);
    case WorstColumn:
        return worstText(row);
    case DueColumn:
        return known(QStringLiteral("due"), snapshot ? snapshot->counts.due : 0);
    case DeadColumn:
        return known(QStringLiteral("dead"), snapshot ? snapshot->counts.dead : 0);
    case OldestPendingColumn:
        if (!snapshot)
            return QStringLiteral("—");
        if (!snapshot->isAvailable(QStringLiteral("oldest_pending_age_ms")))
            return QStringLiteral("n/a");
        return snapshot->oldestPendingAgeMs ? TimeFormat::age(*snapshot->oldestPendingAgeMs)
                                            : tr("none pending");
    case DiagnosisColumn:
        return diagnosisText(row);
    case RefreshedColumn:
        return refreshedText(row);
    default:
        return {};
    }
}

QVariant FleetModel::cellLevel(const Row &row, int column) const
{
    if (!row.monitor || !row.monitor->hasSnapshot() || row.monitor->isStale())
        return {};
    const HealthSnapshot &s = row.monitor->snapshot();
    switch (column) {
    case DueColumn:
        return int(HealthGrade::levelOf(s.counts.due, m_thresholds.due));
    case DeadColumn:
        return int(HealthGrade::levelOf(s.counts.dead, m_thresholds.dead));
    case OldestPendingColumn:
        return s.oldestPendingAgeMs
            ? int(HealthGrade::levelOf(*s.oldestPendingAgeMs, m_thresholds.oldestPendingMs))
            : int(HealthGrade::Level::Normal);
    case DiagnosisColumn:
        return row.diagnosis->hasResult() && row.diagnosis->lastError().isEmpty()
            ? diagnosisLevel(row.diagnosis->result())
            : QVariant();
    default:
        return int(row.grade.level);
    }
}

QVariant FleetModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = *m_rows.at(size_t(index.row()));
    switch (role) {
    case Qt::DisplayRole: {
        const QVariant text = display(row, index.column());
        return text.typeId() == QMetaType::QString ? QVariant(PlainText::escaped(text.toString()))
                                                   : text;
    }
    case Qt::ToolTipRole: // a server's words and a file's names: never markup
        if (index.column() == StatusColumn || index.column() == NameColumn)
            return PlainText::toolTip(row.entry
                    ? row.entry->url.toDisplayString() + QLatin1Char('\n') + statusText(row)
                    : statusText(row));
        if (index.column() == DiagnosisColumn)
            return PlainText::toolTip(diagnosisToolTip(row));
        return {};
    case SeverityRole:
        return severity(row);
    case LevelRole:
        return cellLevel(row, index.column());
    case EnvironmentColourRole:
        return row.environmentColour;
    case DownRole:
        return !row.monitor || row.monitor->isStale();
    case Qt::TextAlignmentRole:
        if (index.column() == DueColumn || index.column() == DeadColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default:
        return {};
    }
}

QVariant FleetModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case NameColumn:
        return tr("Outbox");
    case EnvironmentColumn:
        return tr("Environment");
    case StatusColumn:
        return tr("Status");
    case WorstColumn:
        return tr("Worst");
    case DueColumn:
        return tr("Due");
    case DeadColumn:
        return tr("DEAD");
    case OldestPendingColumn:
        return tr("Oldest pending");
    case DiagnosisColumn:
        return tr("Diagnosis");
    case RefreshedColumn:
        return tr("Last refresh");
    default:
        return {};
    }
}
