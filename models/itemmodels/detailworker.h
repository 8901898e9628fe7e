// Reads what the window shows about one event — its summary, attempts and replays, its
// plain-language explanation (EventExplainer), and on request its payload — and the whole replay
// log, on its own thread with its own read-only connection. Lives on the QThread that
// DetailReader owns; the connection is opened there on the first request, dropped when a read
// fails (the server may have gone) and reopened on the next one, so the pane heals when the
// database comes back.
#pragma once

#include "dbconnection.h"
#include "eventdetail.h"
#include "eventexplainer.h"
#include "eventlookup.h"
#include "outboxprofile.h"
#include "workerconnection.h"

#include <QElapsedTimer>
#include <QObject>
#include <QStringList>
#include <memory>
#include <optional>

class DetailWorker : public QObject
{
    Q_OBJECT
public:
    DetailWorker(const DatabaseUrl &url, const OpenOptions &options, QObject *parent = nullptr);
    ~DetailWorker() override;

public slots:
    void setProfile(const OutboxProfile &profile);
    // The relay's retry policy and budget, named in the explanation when known.
    void setExplainOptions(const ExplainOptions &options)
    {
        m_explain = options;
        m_deadExplanation.reset();
    }
    // The detail as of `now` (ms since the epoch, or a simulation's logical time).
    void readDetail(quint64 requestId, const QString &eventId, qint64 now);
    void readPayload(quint64 requestId, const QString &eventId, const QStringList &sensitiveKeys);
    void readReplayLog(quint64 requestId);
    // Whether the event exists and which criteria of `filter` hide it (EventLookup::locate).
    void readLocation(
        quint64 requestId, const QString &eventId, const EventFilter &filter, qint64 now);

signals:
    void detailReady(quint64 requestId, const EventDetail &detail);
    void payloadReady(quint64 requestId, const EventPayload &payload);
    void replayLogReady(quint64 requestId, const SqlRows &rows, const QString &error);
    void locationReady(quint64 requestId, const EventLocation &location);

private:
    QSqlDatabase database(QString *error);
    void dropConnection() { m_connection.drop(); }
    // Each reads with a QSqlDatabase handle that is gone when it returns, so that the
    // connection can then be dropped without "still in use".
    bool readDetail(EventDetail *detail, qint64 now);
    void explain(const QSqlDatabase &db, EventDetail *detail, qint64 now);
    void readNotes(const QSqlDatabase &db, EventDetail *detail);
    bool readPayload(EventPayload *payload, const QStringList &sensitiveKeys);
    std::optional<SqlRows> readReplayLog(QString *error);
    bool readSummary(const QSqlDatabase &db, EventDetail *detail);
    bool readProfileAttempts(const QSqlDatabase &db, EventDetail *detail);
    bool native() const { return !m_profile; }
    QString source(const QSqlDatabase &db) const;

    WorkerConnection m_connection;
    std::optional<OutboxProfile> m_profile; // only for another schema than the native one
    ExplainOptions m_explain;
    // A DEAD event's explanation counts the other DEAD events with its error, a read of every
    // DEAD row: kept for DeadExplanationReuseMs while the event's failures and error are the
    // same, instead of being worked out again on every refresh of the pane. (Its words do not
    // depend on the clock.)
    static constexpr qint64 DeadExplanationReuseMs = 60000;
    struct DeadExplanation
    {
        QString eventId;
        int failures = 0;
        QVariant lastError;
        QString text;
        QElapsedTimer age;
    };
    std::optional<DeadExplanation> m_deadExplanation;
};
