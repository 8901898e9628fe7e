// A TCP proxy on loopback, between outboxctl and a database server, that loses the answer to one
// COMMIT: it forwards every byte both ways until the client has sent `marker` (the text of a
// statement the job prepares, "INSERT INTO replay_log"), then forwards the `nth` COMMIT after
// it to the server, waits for the server's answer, drops it and closes both connections. The
// server committed; the client never hears so — what a restart or a dropped network right
// after COMMIT does, made deterministic. The test servers speak without TLS, and PostgreSQL's
// simple query ('Q') and MySQL's COM_QUERY (0x03) carry a COMMIT as its text.
#pragma once

#include <QByteArray>
#include <atomic>
#include <thread>

class CommitCutter
{
public:
    CommitCutter(int serverPort, QByteArray marker, int nth = 1);
    ~CommitCutter();
    CommitCutter(const CommitCutter &) = delete;
    CommitCutter &operator=(const CommitCutter &) = delete;

    int port() const { return m_port; } // 0 when the socket could not be set up
    // The COMMIT was forwarded, its answer received from the server and dropped.
    bool hasCut() const { return m_cut; }

private:
    void serve();

    int m_listen = -1;
    int m_port = 0;
    int m_serverPort = 0;
    QByteArray m_marker;
    int m_nth = 1;
    std::atomic_bool m_stop {false};
    std::atomic_bool m_cut {false};
    std::thread m_thread;
};
