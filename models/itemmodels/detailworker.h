// Reads what the window shows about one event — its summary, attempts and replays, and on
// request its payload — and the whole replay log, on its own thread with its own read-only
// connection. Lives on the QThread that DetailReader owns; the connection is opened there on
// the first request, dropped when a read fails (the server may have gone) and reopened on the
// next one, so the pane heals when the database comes back.
#pragma once

#include "dbconnection.h"
#include "eventdetail.h"
#include "outboxprofile.h"

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
    void readDetail(quint64 requestId, const QString &eventId);
    void readPayload(quint64 requestId, const QString &eventId, const QStringList &sensitiveKeys);
    void readReplayLog(quint64 requestId);

signals:
    void detailReady(quint64 requestId, const EventDetail &detail);
    void payloadReady(quint64 requestId, const EventPayload &payload);
    void replayLogReady(quint64 requestId, const SqlRows &rows, const QString &error);

private:
    QSqlDatabase database(QString *error);
    void dropConnection() { m_connection.reset(); }
    // Each reads with a QSqlDatabase handle that is gone when it returns, so that the
    // connection can then be dropped without "still in use".
    bool readDetail(EventDetail *detail);
    bool readPayload(EventPayload *payload, const QStringList &sensitiveKeys);
    std::optional<SqlRows> readReplayLog(QString *error);
    bool readSummary(const QSqlDatabase &db, EventDetail *detail);
    bool native() const { return !m_profile; }
    QString source(const QSqlDatabase &db) const;

    DatabaseUrl m_url;
    OpenOptions m_options;
    std::unique_ptr<DbConnection> m_connection;
    std::optional<OutboxProfile> m_profile; // only for another schema than the native one
};
