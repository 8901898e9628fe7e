// Reads the event table's pages on its own thread with its own read-only connection, opened
// lazily on the first request (so it belongs to that thread) and reopened after a statement
// failed, so the table heals when the server comes back. Lives on the QThread that
// EventQueryClient owns.
//
// A request superseded while it waited is skipped (EventQueryState::newest). On PostgreSQL and
// MySQL a superseded statement that already runs is cancelled by EventQueryCanceller from a
// second connection; the worker recognises the cancellation and answers nothing. A statement
// stopped by the statement timeout answers TimedOut. SQLite has neither: a running read finishes,
// and only the requests queued behind it are skipped.
#pragma once

#include "dbconnection.h"
#include "eventpage.h"
#include "eventquerystate.h"
#include "workerconnection.h"

#include <QObject>
#include <memory>
#include <optional>

class EventPageQuery;

class EventQueryWorker : public QObject
{
    Q_OBJECT
public:
    EventQueryWorker(const DatabaseUrl &url, const OpenOptions &options,
        std::shared_ptr<EventQueryState> state, QObject *parent = nullptr);
    ~EventQueryWorker() override;

public slots:
    // Answers with answered(), carrying the request's id, unless the request was superseded.
    void run(const EventPageRequest &request);

signals:
    void answered(const EventPageAnswer &answer);

private:
    DbConnection *ensureConnection(QString *error); // null with *error when it cannot open
    void inspectConnection(const QSqlDatabase &db, const SqlDialect &dialect);
    bool idsInCCollation(const QSqlDatabase &db, const SqlDialect &dialect, const QString &source);
    // One try at the request's page (and count); false when it has no answer.
    bool runOnce(const EventPageRequest &request, EventPageAnswer *answer);
    bool readPage(EventPageQuery &query, const EventPageRequest &request, EventPageAnswer *answer);
    void readCount(EventPageQuery &query, const EventPageRequest &request, EventPageAnswer *answer);
    // The page's DEAD rows' notes, in one statement (none before the schema has them).
    void readNotes(
        const QSqlDatabase &db, const EventPageRequest &request, EventPageAnswer *answer);
    bool settle(const EventPageQuery &query, quint64 id, qint64 elapsedMs, EventPageAnswer *answer);

    int m_statementTimeoutMs = 0;
    std::shared_ptr<EventQueryState> m_state;
    WorkerConnection m_connection;
    bool m_idsInCCollation = false; // for m_probedSource, on this connection
    std::optional<QString> m_probedSource;
    bool m_notesAvailable = false; // operator_note seen on this database (never goes away)
};
