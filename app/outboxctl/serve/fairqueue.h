// The password checks waiting for serve's one bcrypt thread, taken fairly between peers (a peer
// is an IPv4 address or an IPv6 /64, see peerOf): one queue per peer, served round-robin, so a
// peer with many checks waiting delays another peer's check by at most one check per round. A
// peer whose check just failed is passed over until its pause ends (penalise), so a peer that
// sends only wrong passwords cannot keep the thread for itself. Within a peer, an item pushed
// `behind` (from a connection whose check failed before) waits after the others: a scraper's
// new connection is not stuck behind the keep-alive loops of a flood from its own address.
// Nothing in it depends on the user a check is for: the order of answers tells nothing about
// who exists. Bounded: at most Limits::perPeer items per peer (over it that peer is refused,
// nobody else), at most Limits::total in all (over it the last item of the peer holding the
// most goes), and pauses remembered for at most Limits::peersRemembered peers.
// Single-threaded; times are in ms of any monotonic clock, passed in.
#pragma once

#include <QByteArray>
#include <QHash>
#include <QHostAddress>
#include <QList>
#include <algorithm>
#include <deque>
#include <optional>
#include <utility>

struct FairQueueLimits
{
    int perPeer = 32;
    int total = 128;
    int peersRemembered = 1024;
};

// The peer a connection counts as: its IPv4 address (also when IPv4-mapped), or the /64 of
// its IPv6 address (one host usually holds a whole /64).
inline QByteArray peerOf(const QHostAddress &address)
{
    bool isIpv4 = false;
    const quint32 ipv4 = address.toIPv4Address(&isIpv4);
    if (isIpv4)
        return '4' + QByteArray::number(ipv4);
    const Q_IPV6ADDR ipv6 = address.toIPv6Address();
    return '6' + QByteArray(reinterpret_cast<const char *>(ipv6.c), 8);
}

template <typename T> class FairQueue
{
public:
    enum class Added { Queued, PeerFull };

    explicit FairQueue(FairQueueLimits limits = {})
        : m_limits(limits)
    { }

    // Queues item at the end of peer's queue (or of its items behind); PeerFull (item not
    // queued) when peer holds perPeer items, or holds the most when the whole queue is full.
    // When the queue is full and another peer holds the most, that peer's last item is taken
    // out into *pushedOut.
    Added push(const QByteArray &peer, T item, std::optional<T> *pushedOut, bool behind = false)
    {
        const size_t waiting = m_peers.value(peer).size();
        if (int(waiting) >= m_limits.perPeer)
            return Added::PeerFull;
        if (m_size >= m_limits.total) {
            Peer &largest = m_peers[largestPeer()]; // holds items: already there
            if (largest.size() <= waiting + 1)
                return Added::PeerFull;
            auto &last = largest.behind.empty() ? largest.items : largest.behind;
            *pushedOut = std::move(last.back());
            last.pop_back();
            --m_size;
        }
        Peer &queue = m_peers[peer];
        if (queue.size() == 0)
            m_turns.append(peer);
        (behind ? queue.behind : queue.items).push_back(std::move(item));
        ++m_size;
        return Added::Queued;
    }

    // Puts item back at the front of peer's queue (a check to make again); never refused.
    void pushFront(const QByteArray &peer, T item)
    {
        Peer &queue = m_peers[peer];
        if (queue.size() == 0)
            m_turns.append(peer);
        queue.items.push_front(std::move(item));
        ++m_size;
    }

    // The oldest item (not behind, if it has one) of the first peer in turn whose pause is
    // over; that peer's turn moves to the end of the round.
    std::optional<std::pair<QByteArray, T>> take(qint64 now)
    {
        for (qsizetype i = 0; i < m_turns.size(); ++i) {
            const QByteArray peer = m_turns.at(i);
            Peer &queue = m_peers[peer];
            if (queue.resumeAt > now)
                continue;
            auto &first = queue.items.empty() ? queue.behind : queue.items;
            T item = std::move(first.front());
            first.pop_front();
            --m_size;
            m_turns.removeAt(i);
            if (queue.size() != 0)
                m_turns.append(peer);
            else
                m_peers.remove(peer); // nothing to wait for, nothing to remember
            return std::make_pair(peer, std::move(item));
        }
        return std::nullopt;
    }

    // In how many ms take() returns an item: 0 now, -1 when nothing waits.
    qint64 readyIn(qint64 now) const
    {
        qint64 soonest = -1;
        for (const QByteArray &peer : m_turns) {
            const qint64 wait = std::max<qint64>(0, m_peers.value(peer).resumeAt - now);
            if (soonest < 0 || wait < soonest)
                soonest = wait;
        }
        return soonest;
    }

    // Passes peer over until resumeAt.
    void penalise(const QByteArray &peer, qint64 now, qint64 resumeAt)
    {
        m_peers[peer].resumeAt = resumeAt;
        if (m_peers.size() > m_limits.peersRemembered)
            forgetPeers(now);
    }

    int size() const { return m_size; }
    int peersRemembered() const { return int(m_peers.size()); }

private:
    struct Peer
    {
        std::deque<T> items;
        std::deque<T> behind; // taken when items is empty
        qint64 resumeAt = 0;
        size_t size() const { return items.size() + behind.size(); }
    };

    QByteArray largestPeer() const
    {
        QByteArray largest;
        size_t most = 0;
        for (const QByteArray &peer : m_turns) {
            const size_t count = m_peers.value(peer).size();
            if (count > most) {
                most = count;
                largest = peer;
            }
        }
        return largest;
    }

    // Drops the peers with nothing waiting: first those whose pause is over, then those whose
    // pause ends soonest, until at most peersRemembered are left. Peers with items waiting are
    // at most total, fewer than peersRemembered.
    void forgetPeers(qint64 now)
    {
        QList<std::pair<qint64, QByteArray>> idle;
        for (auto it = m_peers.begin(); it != m_peers.end();) {
            if (it->size() == 0 && it->resumeAt <= now) {
                it = m_peers.erase(it);
                continue;
            }
            if (it->size() == 0)
                idle.append({it->resumeAt, it.key()});
            ++it;
        }
        std::sort(idle.begin(), idle.end());
        for (qsizetype i = 0; i < idle.size() && m_peers.size() > m_limits.peersRemembered; ++i)
            m_peers.remove(idle.at(i).second);
    }

    FairQueueLimits m_limits;
    QHash<QByteArray, Peer> m_peers;
    QList<QByteArray> m_turns; // the peers with items waiting, next in turn first
    int m_size = 0;
};
