// The GUI side of the detail worker: owns its thread, sends requests (the selected event's
// detail, its payload on request, the whole replay log) and re-emits only the newest answer of
// each kind, so a slow answer never overwrites a fresher one. Nothing here touches a database.
#pragma once

#include "dbconnection.h"
#include "eventdetail.h"
#include "eventexplainer.h"
#include "eventlookup.h"
#include "requestids.h"
#include "workerthread.h"

#include <QObject>
#include <QStringList>
#include <optional>

class DetailWorker;
class OutboxProfile;

class DetailReader : public QObject
{
    Q_OBJECT
public:
    // Read-only, schema not validated again (whoever opened the window did), and on
    // PostgreSQL a statement timeout so a stuck read cannot hold the pane forever.
    static OpenOptions defaultOpenOptions();

    explicit DetailReader(const DatabaseUrl &url, QObject *parent = nullptr);
    DetailReader(const DatabaseUrl &url, const OpenOptions &options, QObject *parent = nullptr);
    ~DetailReader() override; // waits for the read in progress, bounded by the timeout

    void setProfile(const OutboxProfile &profile);
    // The relay's retry policy and budget, named in the explanation when known.
    void setExplainOptions(const ExplainOptions &options);
    // The detail with its explanation as of `now` (ms; the wall clock when not given).
    void requestDetail(const QString &eventId, std::optional<qint64> now = std::nullopt);
    void requestPayload(const QString &eventId, const QStringList &sensitiveKeys);
    void requestReplayLog();
    // Find event, --select: whether `eventId` exists and which criteria of `filter` hide it.
    void requestLocation(const QString &eventId, const EventFilter &filter, qint64 now);
    bool isLoadingDetail() const { return m_detail.isBusy(); }
    bool isLoadingReplayLog() const { return m_replayLog.isBusy(); }

signals:
    void detailLoaded(const EventDetail &detail);
    void payloadLoaded(const EventPayload &payload);
    void replayLogLoaded(const SqlRows &rows);
    void replayLogFailed(const QString &error);
    void locationLoaded(const EventLocation &location);

private:
    void connectWorker();
    void acceptDetail(quint64 requestId, const EventDetail &detail);
    void acceptPayload(quint64 requestId, const EventPayload &payload);
    void acceptReplayLog(quint64 requestId, const SqlRows &rows, const QString &error);

    WorkerThread<DetailWorker> m_worker;
    // One kind each: an answer older than the newest request of its kind is dropped.
    RequestIds m_detail;
    RequestIds m_payload;
    RequestIds m_replayLog;
    RequestIds m_location;
    bool m_replayLogAgain = false; // asked for while a read ran: read once more after it
};
