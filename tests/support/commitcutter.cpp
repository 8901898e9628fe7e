#include "commitcutter.h"

#include <QList>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {

struct Pair
{
    int client = -1;
    int server = -1;
    bool awaitingAnswer = false; // the cut COMMIT is with the server
};

int connectTo(int port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address = {};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(quint16(port));
    if (fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0)
        return fd;
    if (fd >= 0)
        ::close(fd);
    return -1;
}

bool sendAll(int fd, const char *data, qsizetype size)
{
    while (size > 0) {
        const ssize_t sent = ::send(fd, data, size_t(size), MSG_NOSIGNAL);
        if (sent <= 0)
            return false;
        data += sent;
        size -= sent;
    }
    return true;
}

// One small message holding only COMMIT: PostgreSQL 'Q' len "COMMIT\0", MySQL len seq 0x03
// "COMMIT".
bool isCommit(const QByteArray &chunk)
{
    return chunk.size() <= 16
        && (chunk.endsWith(QByteArrayLiteral("COMMIT"))
            || chunk.endsWith(QByteArray("COMMIT\0", 7)));
}

void closePair(Pair &pair)
{
    ::close(pair.client);
    ::close(pair.server);
    pair.client = pair.server = -1;
}

} // namespace

CommitCutter::CommitCutter(int serverPort, QByteArray marker, int nth)
    : m_serverPort(serverPort)
    , m_marker(std::move(marker))
    , m_nth(nth)
{
    m_listen = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address = {};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (m_listen < 0 || ::bind(m_listen, reinterpret_cast<sockaddr *>(&address), length) != 0
        || ::listen(m_listen, 8) != 0
        || ::getsockname(m_listen, reinterpret_cast<sockaddr *>(&address), &length) != 0)
        return;
    m_port = ntohs(address.sin_port);
    m_thread = std::thread([this] { serve(); });
}

CommitCutter::~CommitCutter()
{
    m_stop = true;
    if (m_thread.joinable())
        m_thread.join();
    if (m_listen >= 0)
        ::close(m_listen);
}

void CommitCutter::serve()
{
    QList<Pair> pairs;
    bool markerSeen = false;
    int commits = 0;
    while (!m_stop) {
        QList<pollfd> fds {{m_listen, POLLIN, 0}};
        for (const Pair &pair : std::as_const(pairs))
            fds << pollfd {pair.client, POLLIN, 0} << pollfd {pair.server, POLLIN, 0};
        if (::poll(fds.data(), nfds_t(fds.size()), 50) <= 0)
            continue;
        const qsizetype polled = pairs.size(); // a pair accepted now is polled next time
        if (fds.at(0).revents & POLLIN) {
            Pair pair {::accept(m_listen, nullptr, nullptr), connectTo(m_serverPort)};
            if (pair.client >= 0 && pair.server >= 0)
                pairs << pair;
            else
                closePair(pair);
        }
        for (qsizetype i = 0; i < polled; ++i) {
            Pair &pair = pairs[i];
            for (const bool fromClient : {true, false}) {
                const pollfd &ready = fds.at(1 + 2 * i + (fromClient ? 0 : 1));
                if (pair.client < 0 || !(ready.revents & (POLLIN | POLLHUP | POLLERR)))
                    continue;
                char buffer[65536];
                const ssize_t got = ::recv(ready.fd, buffer, sizeof buffer, 0);
                if (got <= 0 || (!fromClient && pair.awaitingAnswer)) {
                    if (got > 0)
                        m_cut = true; // the server answered the COMMIT: dropped
                    closePair(pair);
                    continue;
                }
                const QByteArray chunk(buffer, got);
                if (fromClient && markerSeen && isCommit(chunk) && ++commits == m_nth)
                    pair.awaitingAnswer = true;
                if (fromClient && chunk.contains(m_marker))
                    markerSeen = true;
                if (!sendAll(fromClient ? pair.server : pair.client, buffer, got))
                    closePair(pair);
            }
        }
        pairs.removeIf([](const Pair &pair) { return pair.client < 0; });
    }
    for (Pair &pair : pairs)
        closePair(pair);
}
