// The basic_auth_users of a web config: user names and their bcrypt hashes, checked the way the
// Prometheus exporter-toolkit checks them. A password is verified with the system's bcrypt
// (crypt_r of libxcrypt) and compared in constant time; an unknown user is checked against a
// fixed decoy hash of the users' usual cost, so the time taken tells nothing about who exists.
// Successful checks are remembered (at most CacheSize) under an HMAC of the length-prefixed
// user, hash and password with a key drawn at start: no crafted user name can make two checks
// share a key (CVE-2022-46146 was a cache key built by plain concatenation), and no password is
// kept in clear. The slow part, verify(), is a pure function for a worker thread; prepare() and
// remember() belong to the serving thread.
#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <optional>
#include <utility>

namespace Bcrypt {

// Whether hash is a bcrypt hash this program verifies: $2a$, $2b$ or $2y$, a cost from 4 to
// 31, 22 characters of salt and 31 of checksum. The error never quotes the hash (a pasted
// password must not end up in a log).
bool isValidHash(const QByteArray &hash, QString *error);
int cost(const QByteArray &hash); // of a valid hash
// crypt_r(password, hash) compared with hash in constant time; false for an invalid hash.
bool matches(const QByteArray &password, const QByteArray &hash);

} // namespace Bcrypt

// One password check: made by prepare() on the serving thread, verified anywhere.
struct BasicAuthCheck
{
    QByteArray cacheKey;
    QByteArray hash; // the user's, or the decoy for an unknown user
    QByteArray password;
    bool knownUser = false;
    bool cachedSuccess = false; // verified before: no bcrypt needed
};

class BasicAuth
{
public:
    static constexpr int CacheSize = 100;

    explicit BasicAuth(QHash<QByteArray, QByteArray> hashesByUser = {});

    bool isEnabled() const { return !m_hashes.isEmpty(); }
    QByteArray decoyHash() const { return m_decoy; }

    BasicAuthCheck prepare(const QByteArray &user, const QByteArray &password) const;
    // Slow (one bcrypt) unless the check was cached; safe on any thread.
    static bool verify(const BasicAuthCheck &check);
    // After verify() said yes: later checks of the same user, hash and password are free.
    void remember(const BasicAuthCheck &check);
    // prepare, verify, remember in one call, on the calling thread.
    bool authenticate(const QByteArray &user, const QByteArray &password);
    int cachedCount() const { return int(m_cacheOrder.size()); }

    // The user and password of an "Authorization: Basic ..." value, as Go's Request.BasicAuth
    // reads it; nothing for another scheme or bad base64 or no ':'.
    static std::optional<std::pair<QByteArray, QByteArray>> credentials(const QByteArray &header);

private:
    QByteArray keyOf(
        const QByteArray &user, const QByteArray &hash, const QByteArray &password) const;

    QHash<QByteArray, QByteArray> m_hashes;
    QByteArray m_decoy;
    QByteArray m_keySecret;
    QSet<QByteArray> m_cache; // keys of successful checks
    QList<QByteArray> m_cacheOrder; // oldest first, evicted first
};
