#include "auditjobmodel.h"

#include <QHash>

namespace {

// A job row has no parent; an event row's internal id is its job's row + 1.
constexpr quintptr JobRowId = 0;

} // namespace

AuditJobModel::AuditJobModel(ReplayLogModel *log, QObject *parent)
    : QAbstractItemModel(parent)
    , m_log(log)
{
    connect(log, &QAbstractItemModel::modelReset, this, &AuditJobModel::regroup);
    regroup();
}

QVariant AuditJobModel::logData(int logRow, int column, int role) const
{
    return m_log->index(logRow, column).data(role);
}

QString AuditJobModel::jobKey(int logRow) const
{
    const auto raw = [this, logRow](int column) {
        const QVariant value = logData(logRow, column, ReplayLogModel::RawValueRole);
        return value.isNull() ? QStringLiteral("-") : value.toString();
    };
    return QStringList {raw(ReplayLogModel::WhenColumn), raw(ReplayLogModel::ActionColumn),
        raw(ReplayLogModel::OperatorColumn), raw(ReplayLogModel::ReasonColumn),
        raw(ReplayLogModel::BudgetColumn)}
        .join(QChar(0x1f));
}

void AuditJobModel::regroup()
{
    beginResetModel();
    m_jobs.clear();
    QHash<QString, int> jobOf;
    const int rows = m_log ? m_log->rowCount() : 0;
    for (int row = 0; row < rows; ++row) {
        const QString key = jobKey(row);
        auto it = jobOf.constFind(key);
        if (it == jobOf.cend()) {
            it = jobOf.insert(key, int(m_jobs.size()));
            m_jobs.append({key, {}, false});
        }
        m_jobs[*it].rows.append(row);
    }
    // The read stops at AuditRows, newest first: a job at the oldest time read may go on.
    if (rows >= ReplayLogModel::AuditRows) {
        const QVariant oldest
            = logData(rows - 1, ReplayLogModel::WhenColumn, ReplayLogModel::RawValueRole);
        for (Job &job : m_jobs) {
            job.maybeMore = logData(job.rows.constLast(), ReplayLogModel::WhenColumn,
                                ReplayLogModel::RawValueRole)
                == oldest;
        }
    }
    endResetModel();
}

QModelIndex AuditJobModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    return createIndex(row, column, parent.isValid() ? quintptr(parent.row() + 1) : JobRowId);
}

QModelIndex AuditJobModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == JobRowId)
        return {};
    return createIndex(int(child.internalId() - 1), 0, JobRowId);
}

int AuditJobModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_jobs.size());
    if (parent.internalId() != JobRowId || parent.column() != 0)
        return 0; // events have no children
    return eventCount(parent.row());
}

int AuditJobModel::columnCount(const QModelIndex &) const
{
    return ReplayLogModel::ColumnCount;
}

QString AuditJobModel::summary(int row) const
{
    const Job &job = m_jobs.at(row);
    const int first = job.rows.constFirst();
    const QString action
        = logData(first, ReplayLogModel::ActionColumn, ReplayLogModel::RawValueRole).toString();
    const QString done = action == QLatin1String("resolve") ? tr("Resolved")
        : action == QLatin1String("reopen")                 ? tr("Reopened")
                                                            : tr("Replayed");
    const int count = int(job.rows.size());
    const QString what = job.maybeMore ? tr("at least %n event(s)", nullptr, count)
        : count == 1                   ? logData(first, ReplayLogModel::EventColumn).toString()
                                       : tr("%n event(s)", nullptr, count);
    return tr("%1 %2 — %3: %4 — %5")
        .arg(done, what, logData(first, ReplayLogModel::OperatorColumn).toString(),
            logData(first, ReplayLogModel::ReasonColumn).toString(),
            logData(first, ReplayLogModel::WhenColumn).toString());
}

QVariant AuditJobModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (index.internalId() != JobRowId) {
        const Job &job = m_jobs.at(int(index.internalId() - 1));
        if (role == IsJobRole)
            return false;
        return logData(job.rows.at(index.row()), index.column(), role);
    }
    switch (role) {
    case IsJobRole:
        return true;
    case JobKeyRole:
        return m_jobs.at(index.row()).key;
    case Qt::DisplayRole:
        return index.column() == 0 ? QVariant(summary(index.row())) : QVariant();
    default:
        return {};
    }
}

QVariant AuditJobModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    return m_log ? m_log->headerData(section, orientation, role) : QVariant();
}
