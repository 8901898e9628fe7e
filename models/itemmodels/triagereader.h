// The GUI side of the triage worker: owns its thread, sends requests (the error groups, one
// group's DEAD events, a replay preview) and re-emits only the newest answer of each kind, so
// a slow answer never overwrites a fresher one. Nothing here touches a database.
#pragma once

#include "requestids.h"
#include "triageworker.h"
#include "workerthread.h"

#include <QObject>

class TriageReader : public QObject
{
    Q_OBJECT
public:
    // Read-only, schema not validated again (whoever opened the window did), the window's
    // connect timeouts, and on PostgreSQL a statement timeout generous enough for grouping
    // every failed event of a big outbox.
    static OpenOptions defaultOpenOptions();

    explicit TriageReader(const DatabaseUrl &url, QObject *parent = nullptr);
    TriageReader(const DatabaseUrl &url, const OpenOptions &options, QObject *parent = nullptr);
    ~TriageReader() override; // waits for the read in progress, bounded by the timeout

    void setProfile(const OutboxProfile &profile);
    // While a read runs, asking again reads once more after it (not a queue of reads).
    void requestErrorGroups();
    void requestDeadEventIds(const QString &signature);
    // Its id comes back with the answer, so that each asker takes only its own.
    quint64 requestPreview(const ReplaySelection &selection, const ReplayRequest &request);
    bool isLoadingErrorGroups() const { return m_groups.isBusy(); }
    bool isLoadingDeadEventIds() const { return m_deadIds.isBusy(); }
    bool isLoadingPreview() const { return m_preview.isBusy(); }

signals:
    void errorGroupsLoaded(const QList<ErrorGroup> &groups);
    void errorGroupsFailed(const QString &error);
    void deadEventIdsLoaded(const QString &signature, const QStringList &ids);
    void deadEventIdsFailed(const QString &signature, const QString &error);
    void previewLoaded(quint64 requestId, const ActionPlan &plan);
    void previewFailed(quint64 requestId, const QString &error);

private:
    void connectWorker();
    void acceptErrorGroups(
        quint64 requestId, const QList<ErrorGroup> &groups, const QString &error);
    void acceptDeadEventIds(quint64 requestId, const QStringList &ids, const QString &error);
    void acceptPreview(quint64 requestId, const ActionPlan &plan, const QString &error);

    WorkerThread<TriageWorker> m_worker;
    // One kind each: an answer older than the newest request of its kind is dropped.
    RequestIds m_groups;
    RequestIds m_deadIds;
    RequestIds m_preview;
    bool m_groupsAgain = false; // asked for while a read ran: read once more after it
    QString m_deadIdsSignature; // of the newest request
};
