#include "basicauth.h"

#include <QMap>
#include <QMessageAuthenticationCode>
#include <QRandomGenerator>
#include <QtEndian>
#include <crypt.h>
#include <cstring>
#include <memory>

namespace {

constexpr qsizetype HashSize = 60; // "$2y$" + "NN$" + 22 salt + 31 checksum
constexpr int MinCost = 4;
constexpr int MaxCost = 31;
// A bcrypt hash of a random string nobody knows; its cost is set to the users' usual one.
constexpr char DecoyHash[] = "$2y$10$tvp8aoBuu4CQQZZ7tqlh0uufFwmMFiU8NtfJg6EXe8kE.23M0jOt.";

bool isBcryptCharacter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.'
        || c == '/';
}

QString formatError(const QByteArray &hash)
{
    if (hash.size() < HashSize)
        return u"too short to be a bcrypt hash"_qs;
    if (!hash.startsWith("$2") || hash.size() < 4 || hash.at(3) != '$')
        return u"not a bcrypt hash (they start $2y$, $2b$ or $2a$)"_qs;
    if (!QByteArrayView("aby").contains(hash.at(2)))
        return QStringLiteral("a $2%1$ hash: only $2y$, $2b$ and $2a$ are verified")
            .arg(QLatin1Char(hash.at(2)));
    if (hash.size() != HashSize)
        return u"not a bcrypt hash (60 characters)"_qs;
    const QByteArray tail = hash.mid(7);
    if (hash.at(6) != '$' || !std::all_of(tail.begin(), tail.end(), isBcryptCharacter))
        return u"not a bcrypt hash (a character outside ./A-Za-z0-9)"_qs;
    return {};
}

// Equal bytes, in a time that depends on the length only.
bool sameBytes(const char *computed, const QByteArray &expected)
{
    if (computed == nullptr || qsizetype(std::strlen(computed)) != expected.size())
        return false;
    unsigned char difference = 0;
    for (qsizetype i = 0; i < expected.size(); ++i)
        difference |= static_cast<unsigned char>(computed[i] ^ expected.at(i));
    return difference == 0;
}

// The cost most users' hashes have (ties: the higher), so that a check of an unknown user
// takes as long as most real checks.
int usualCost(const QHash<QByteArray, QByteArray> &hashesByUser)
{
    QMap<int, int> users;
    for (const QByteArray &hash : hashesByUser)
        ++users[Bcrypt::cost(hash)];
    int best = 10;
    int bestCount = 0;
    for (auto it = users.cbegin(); it != users.cend(); ++it) {
        if (it.value() >= bestCount) {
            best = it.key();
            bestCount = it.value();
        }
    }
    return best;
}

void appendField(QMessageAuthenticationCode *mac, const QByteArray &field)
{
    const quint64 size = qToBigEndian(quint64(field.size()));
    mac->addData(reinterpret_cast<const char *>(&size), sizeof size);
    mac->addData(field);
}

} // namespace

namespace Bcrypt {

bool isValidHash(const QByteArray &hash, QString *error)
{
    QString problem = formatError(hash);
    if (problem.isEmpty()) {
        const int c = cost(hash);
        if (c < MinCost || c > MaxCost)
            problem = QStringLiteral("bcrypt cost %1 is outside the allowed range (%2 to %3)")
                          .arg(c)
                          .arg(MinCost)
                          .arg(MaxCost);
    }
    if (!problem.isEmpty() && error != nullptr)
        *error = problem;
    return problem.isEmpty();
}

int cost(const QByteArray &hash)
{
    bool ok = false;
    const int value = hash.mid(4, 2).toInt(&ok);
    return ok ? value : -1;
}

bool matches(const QByteArray &password, const QByteArray &hash)
{
    // crypt_r reads C strings: a password with a NUL byte would be cut short there.
    if (password.contains('\0') || !isValidHash(hash, nullptr))
        return false;
    const auto data = std::make_unique<crypt_data>(); // about 32 KiB: not on the stack
    return sameBytes(crypt_r(password.constData(), hash.constData(), data.get()), hash);
}

} // namespace Bcrypt

BasicAuth::BasicAuth(QHash<QByteArray, QByteArray> hashesByUser)
    : m_hashes(std::move(hashesByUser))
    , m_decoy(DecoyHash)
{
    m_decoy.replace(4, 2, QByteArray::number(usualCost(m_hashes)).rightJustified(2, '0'));
    m_keySecret.resize(32);
    QRandomGenerator::system()->generate(m_keySecret.begin(), m_keySecret.end());
}

BasicAuthCheck BasicAuth::prepare(const QByteArray &user, const QByteArray &password) const
{
    BasicAuthCheck check;
    const auto found = m_hashes.constFind(user);
    check.knownUser = found != m_hashes.cend();
    check.hash = check.knownUser ? found.value() : m_decoy;
    check.password = password;
    check.cacheKey = keyOf(user, check.hash, password);
    check.cachedSuccess = check.knownUser && m_cache.contains(check.cacheKey);
    return check;
}

bool BasicAuth::verify(const BasicAuthCheck &check)
{
    if (check.cachedSuccess)
        return true;
    // The decoy is checked like a real hash, and refused whatever the answer.
    const bool matched = Bcrypt::matches(check.password, check.hash);
    return check.knownUser && matched;
}

void BasicAuth::remember(const BasicAuthCheck &check)
{
    if (!check.knownUser || m_cache.contains(check.cacheKey))
        return;
    if (m_cacheOrder.size() >= CacheSize)
        m_cache.remove(m_cacheOrder.takeFirst());
    m_cache.insert(check.cacheKey);
    m_cacheOrder.append(check.cacheKey);
}

bool BasicAuth::authenticate(const QByteArray &user, const QByteArray &password)
{
    const BasicAuthCheck check = prepare(user, password);
    const bool allowed = verify(check);
    if (allowed)
        remember(check);
    return allowed;
}

std::optional<std::pair<QByteArray, QByteArray>> BasicAuth::credentials(const QByteArray &header)
{
    static const QByteArray prefix = "basic ";
    if (header.size() < prefix.size() || header.left(prefix.size()).toLower() != prefix)
        return std::nullopt;
    const auto decoded = QByteArray::fromBase64Encoding(
        header.mid(prefix.size()), QByteArray::AbortOnBase64DecodingErrors);
    const qsizetype colon = decoded ? decoded.decoded.indexOf(':') : -1;
    if (colon < 0)
        return std::nullopt;
    return std::make_pair(decoded.decoded.left(colon), decoded.decoded.mid(colon + 1));
}

QByteArray BasicAuth::keyOf(
    const QByteArray &user, const QByteArray &hash, const QByteArray &password) const
{
    QMessageAuthenticationCode mac(QCryptographicHash::Sha256, m_keySecret);
    appendField(&mac, user);
    appendField(&mac, hash);
    appendField(&mac, password);
    return mac.result();
}
