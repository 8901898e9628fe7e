// Opens and checks a database for a new window on a thread of its own, so that the Connect…
// dialog and the window behind it stay responsive while a server is slow or unreachable (the
// connect timeout is 5 s). The connection is closed again on that thread: the window's workers
// open their own. What comes back is what a window needs to know about the database.
#pragma once

#include "databaseurl.h"
#include "outboxprofile.h"

#include <QMetaType>
#include <QObject>
#include <optional>

class QThread;

struct OpenedDatabase
{
    DatabaseUrl url;
    bool readOnly = false;
    std::optional<OutboxProfile> profile; // none: the native schema
    bool markedForSimulation = false;
};
Q_DECLARE_METATYPE(OpenedDatabase)

class ConnectionOpener : public QObject
{
    Q_OBJECT
public:
    explicit ConnectionOpener(QObject *parent = nullptr);
    ~ConnectionOpener() override; // waits for an open under way

    // The same rules as outboxctl --profile (ProfileConnection::open); `profile` none =
    // detected. Synchronous: for the command line, before any window exists.
    static std::optional<OpenedDatabase> open(const QString &urlText, bool readOnly,
        const std::optional<QString> &profile, QString *error);

    // On the opener's thread; answers with opened() or failed(). A newer start() supersedes
    // an older one, whose answer is dropped; so does cancel().
    void start(const QString &urlText, bool readOnly,
        const std::optional<QString> &profile = std::nullopt);
    void cancel() { ++m_generation; }
    bool isBusy() const { return m_running > 0; }

signals:
    void opened(const OpenedDatabase &database);
    void failed(const QString &error);

private:
    quint64 m_generation = 0;
    int m_running = 0;
    QList<QThread *> m_threads;
};
