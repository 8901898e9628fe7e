// The reads behind an operator's triage of failures, on their own thread with their own
// read-only connection: the error groups (the Errors tab), the DEAD events of one group (what
// "Replay group…" replays) and what a replay would do (the replay dialog's plan). Lives on
// the QThread that TriageReader owns; the connection is opened there on the first request,
// dropped when a read fails (the server may have gone) and reopened on the next one.
#pragma once

#include "actionplan.h"
#include "dbconnection.h"
#include "errorgroups.h"
#include "eventfilter.h"
#include "outboxprofile.h"
#include "replaytypes.h"
#include "workerconnection.h"

#include <QObject>
#include <QStringList>
#include <functional>
#include <memory>
#include <optional>

class TriageWorker : public QObject
{
    Q_OBJECT
public:
    TriageWorker(const DatabaseUrl &url, const OpenOptions &options, QObject *parent = nullptr);
    ~TriageWorker() override;

public slots:
    void setProfile(const OutboxProfile &profile);
    void readErrorGroups(quint64 requestId);
    void readDeadEventIds(quint64 requestId, const QString &signature);
    // The action's plan (ActionPlanner::planReplay): what the dialog shows and then executes.
    void computePreview(
        quint64 requestId, const ReplaySelection &selection, const ReplayRequest &request);

signals:
    void errorGroupsReady(quint64 requestId, const QList<ErrorGroup> &groups, const QString &error);
    void deadEventIdsReady(quint64 requestId, const QStringList &ids, const QString &error);
    void previewReady(quint64 requestId, const ActionPlan &plan, const QString &error);

private:
    // Runs `read` with the connection (opened first if need be); on failure drops it, so the
    // next request opens a new one. The QSqlDatabase handle is gone when `read` returns.
    bool withDatabase(
        const std::function<bool(const QSqlDatabase &, QString *)> &read, QString *error);
    const OutboxProfile *profile() const { return m_profile ? &*m_profile : nullptr; }

    WorkerConnection m_connection;
    std::optional<OutboxProfile> m_profile; // only for another schema than the native one
};
