// The Audit page's tree: one row per operator job ("Replayed 215 events — alice: fix deployed —
// 2026-12-03 14:02:05"), expanding to the rows of ReplayLogModel it wrote, one per event.
//
// What identifies one job: every audit row a job writes (replay_log, resolve_log, reopen_log)
// carries the job's one request time (OperatorRequest::now, bound once for all its events),
// its operator, its reason and, for replays, its budget choice; nothing else names the job, and
// adding a job column would be a schema change. So rows with the same action, time (to the
// millisecond), operator, reason and budget are one job. That is safe: two jobs could only merge
// if the same operator started the same action for the same reason in the same millisecond, and
// then the one row still says truly who did what, when and why, and lists every event.
// `outboxctl export --audit` and Export replay log… keep one line per event.
#pragma once

#include "replaylogmodel.h"

#include <QAbstractItemModel>
#include <QList>
#include <QPointer>

class AuditJobModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    // The columns are ReplayLogModel's; a job's row holds its summary in the first
    // (views span it across the row).
    enum Role {
        RawValueRole = ReplayLogModel::RawValueRole, // an event row's stored value
        JobKeyRole, // a job row's identity, stable across reads (to keep it expanded)
        IsJobRole,
    };

    explicit AuditJobModel(ReplayLogModel *log, QObject *parent = nullptr);

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // "Replayed 215 events — alice: fix deployed — 2026-12-03 14:02:05" of the job row `row`.
    QString summary(int row) const;
    int eventCount(int row) const { return int(m_jobs.value(row).rows.size()); }

private:
    struct Job
    {
        QString key;
        QList<int> rows; // ReplayLogModel's rows, newest first
        bool maybeMore = false; // the read stopped within this job's time: older rows not read
    };
    void regroup();
    QString jobKey(int logRow) const;
    QVariant logData(int logRow, int column, int role = Qt::DisplayRole) const;

    QPointer<ReplayLogModel> m_log;
    QList<Job> m_jobs; // newest first
};
