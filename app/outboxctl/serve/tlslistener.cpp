#include "tlslistener.h"

#include "boundedfile.h"

#include <QSslCipher>
#include <QSslKey>
#include <QSslSocket>
#include <QVariant>
#include <limits>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <unistd.h>

namespace {

// Milliseconds of the listener's clock at a handshake's start and at its last progress.
constexpr const char *StartedAt = "outboxHandshakeStartedAt";
constexpr const char *ProgressAt = "outboxHandshakeProgressAt";

std::optional<QList<QSslCertificate>> certificates(
    const QString &path, const QString &what, QString *error)
{
    const auto pem = BoundedFile::read(path, TlsSettings::MaxFileBytes, what, error);
    if (!pem)
        return std::nullopt;
    const QList<QSslCertificate> list = QSslCertificate::fromData(*pem, QSsl::Pem);
    if (list.isEmpty()) {
        *error = QStringLiteral("%1 %2 holds no PEM certificate").arg(what, path);
        return std::nullopt;
    }
    return list;
}

std::optional<QSslKey> privateKey(const QString &path, QString *error)
{
    const QString what = u"TLS key file"_qs;
    const auto pem = BoundedFile::read(path, TlsSettings::MaxFileBytes, what, error);
    if (!pem)
        return std::nullopt;
    for (const QSsl::KeyAlgorithm algorithm : {QSsl::Rsa, QSsl::Ec}) {
        const QSslKey key(*pem, algorithm, QSsl::Pem, QSsl::PrivateKey);
        if (!key.isNull())
            return key;
    }
    *error = QStringLiteral("%1 %2 holds no unencrypted RSA or EC private key in PEM form")
                 .arg(what, path);
    return std::nullopt;
}

// Go's crypto/tls idea of a default: TLS 1.2 suites with an ephemeral key exchange (ECDHE:
// forward secrecy) and an AEAD cipher (GCM, CCM, ChaCha20-Poly1305), authenticated by the
// certificate (no PSK, no anonymous suites); the TLS 1.3 suites as Qt offers them.
QList<QSslCipher> forwardSecretCiphers()
{
    QList<QSslCipher> list;
    for (const QSslCipher &cipher : QSslConfiguration::supportedCiphers()) {
        const QString exchange = cipher.keyExchangeMethod();
        const QString authentication = cipher.authenticationMethod();
        const QString encryption = cipher.encryptionMethod();
        const bool aead = encryption.contains(u"GCM"_qs) || encryption.contains(u"CCM"_qs)
            || encryption.contains(u"CHACHA20"_qs);
        const bool ephemeral = exchange == u"ECDH"_qs; // DHE: Qt sets no DH parameters
        const bool certified = authentication == u"RSA"_qs || authentication == u"ECDSA"_qs;
        if (cipher.protocol() == QSsl::TlsV1_3 || (ephemeral && certified && aead))
            list << cipher;
    }
    return list;
}

// As Go's tls.X509KeyPair: the key must be the certificate's (OpenSSL's X509_check_private_key
// on the first certificate of the file); else Qt would find out at the first handshake only,
// and fail every handshake.
bool keyMatches(const QSslCertificate &certificate, const QSslKey &key)
{
    const QByteArray certificatePem = certificate.toPem();
    const QByteArray keyPem = key.toPem();
    BIO *certificateBio = BIO_new_mem_buf(certificatePem.constData(), int(certificatePem.size()));
    BIO *keyBio = BIO_new_mem_buf(keyPem.constData(), int(keyPem.size()));
    const auto noPassphrase = [](char *, int, int, void *) { return 0; };
    X509 *x509
        = certificateBio ? PEM_read_bio_X509(certificateBio, nullptr, nullptr, nullptr) : nullptr;
    EVP_PKEY *pkey
        = keyBio ? PEM_read_bio_PrivateKey(keyBio, nullptr, noPassphrase, nullptr) : nullptr;
    const bool matches = x509 && pkey && X509_check_private_key(x509, pkey) == 1;
    EVP_PKEY_free(pkey);
    X509_free(x509);
    BIO_free(keyBio);
    BIO_free(certificateBio);
    ERR_clear_error(); // this thread's OpenSSL error queue is Qt's too
    return matches;
}

std::optional<QList<QSslCipher>> ciphers(const QStringList &names, QString *error)
{
    if (names.isEmpty())
        return forwardSecretCiphers();
    QList<QSslCipher> list;
    for (const QString &name : names) {
        const QSslCipher cipher(name);
        if (cipher.isNull()) {
            *error = QStringLiteral("cipher suite %1 is not offered by this system's OpenSSL")
                         .arg(name);
            return std::nullopt;
        }
        list << cipher;
    }
    return list;
}

QSsl::SslProtocol protocol(const TlsServerConfig &config)
{
    if (config.minVersion == 13)
        return QSsl::TlsV1_3OrLater;
    return config.maxVersion == 12 ? QSsl::TlsV1_2 : QSsl::TlsV1_2OrLater;
}

void setClientAuth(QSslConfiguration *ssl, ClientAuth clientAuth)
{
    switch (clientAuth) {
    case ClientAuth::NoClientCert:
        ssl->setPeerVerifyMode(QSslSocket::VerifyNone);
        break;
    case ClientAuth::RequestClientCert:
    case ClientAuth::RequireAnyClientCert:
        ssl->setPeerVerifyMode(QSslSocket::QueryPeer);
        break;
    case ClientAuth::VerifyClientCertIfGiven:
    case ClientAuth::RequireAndVerifyClientCert:
        ssl->setPeerVerifyMode(QSslSocket::VerifyPeer);
        break;
    }
    ssl->setMissingCertificateIsFatal(clientAuth == ClientAuth::RequireAnyClientCert
        || clientAuth == ClientAuth::RequireAndVerifyClientCert);
}

} // namespace

namespace TlsSettings {

std::optional<QSslConfiguration> configuration(const TlsServerConfig &config, QString *error)
{
    const auto chain = certificates(config.certFile, u"TLS certificate file"_qs, error);
    const auto key = chain ? privateKey(config.keyFile, error) : std::nullopt;
    if (key && !keyMatches(chain->constFirst(), *key)) {
        *error = QStringLiteral("TLS key file %1 does not belong to the certificate in %2 "
                                "(their public keys differ)")
                     .arg(config.keyFile, config.certFile);
        return std::nullopt;
    }
    const auto suites = key ? ciphers(config.ciphers, error) : std::nullopt;
    if (!suites)
        return std::nullopt;
    QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
    ssl.setLocalCertificateChain(*chain);
    ssl.setPrivateKey(*key);
    ssl.setProtocol(protocol(config));
    ssl.setCiphers(*suites);
    if (!config.clientCaFile.isEmpty()) {
        const auto authorities = certificates(config.clientCaFile, u"client CA file"_qs, error);
        if (!authorities)
            return std::nullopt;
        ssl.setCaCertificates(*authorities);
    }
    setClientAuth(&ssl, config.clientAuth);
    return ssl;
}

} // namespace TlsSettings

TlsListener::TlsListener(QObject *parent)
    : QSslServer(parent)
{
    setHandshakeTimeout(HandshakeTimeoutMs);
    // QSslServer counts handshakes as pending connections and stops accepting at this many
    // (30 by default) until one times out, which let silent clients hold a scrape back; the cap
    // is kept in incomingConnection instead.
    setMaxPendingConnections(std::numeric_limits<int>::max());
    connect(this, &QSslServer::sslErrors, this, &TlsListener::forgive);
    connect(this, &QSslServer::errorOccurred, this, &TlsListener::report);
    connect(this, &QSslServer::startedEncryptionHandshake, this, &TlsListener::track);
    m_clock.start();
}

// A handshake makes progress when the server writes its part of it, i.e. after each flight
// the client sent (its ClientHello first).
void TlsListener::track(QSslSocket *socket)
{
    socket->setProperty(StartedAt, m_clock.elapsed());
    connect(socket, &QSslSocket::encryptedBytesWritten, socket,
        [this, socket] { socket->setProperty(ProgressAt, m_clock.elapsed()); });
}

void TlsListener::apply(const QSslConfiguration &configuration, ClientAuth clientAuth)
{
    setSslConfiguration(configuration);
    m_clientAuth = clientAuth;
    m_reported = false;
}

void TlsListener::countAgainst(HttpServer *server)
{
    m_server = server;
}

int TlsListener::handshakesUnderWay() const
{
    return int(handshakes().size());
}

// Oldest first (children keep the order they were added in).
QList<QSslSocket *> TlsListener::handshakes() const
{
    QList<QSslSocket *> list = findChildren<QSslSocket *>(Qt::FindDirectChildrenOnly);
    list.removeIf([](const QSslSocket *socket) {
        return socket->isEncrypted() || socket->state() != QAbstractSocket::ConnectedState;
    });
    return list;
}

void TlsListener::incomingConnection(qintptr socketDescriptor)
{
    if (!makeRoom()) {
        ::close(int(socketDescriptor));
        return;
    }
    QSslServer::incomingConnection(socketDescriptor);
}

bool TlsListener::makeRoom()
{
    const QList<QSslSocket *> underWay = handshakes();
    const int served = m_server ? m_server->openConnections() : 0;
    const int cap = m_server ? m_server->maxConnections() : HttpLimits {}.maxConnections;
    if (underWay.size() + served < cap)
        return true;
    if (QSslSocket *idlest = idlestHandshake(underWay)) {
        idlest->abort();
        idlest->deleteLater(); // QSslServer forgets it when it is destroyed
        return true;
    }
    return m_server && m_server->closeOldestIdle();
}

// The handshake idle longest (since its last progress, else since it started), never one that
// made progress within ProgressGraceMs: a client whose handshake is moving (a scraper) is not
// closed for the clients that connect and stay silent, however fast they come.
QSslSocket *TlsListener::idlestHandshake(const QList<QSslSocket *> &underWay) const
{
    const qint64 now = m_clock.elapsed();
    QSslSocket *idlest = nullptr;
    qint64 idlestSince = std::numeric_limits<qint64>::max();
    for (QSslSocket *socket : underWay) {
        const QVariant progress = socket->property(ProgressAt);
        if (progress.isValid() && now - progress.toLongLong() < ProgressGraceMs)
            continue;
        const qint64 since
            = progress.isValid() ? progress.toLongLong() : socket->property(StartedAt).toLongLong();
        if (since < idlestSince) {
            idlest = socket;
            idlestSince = since;
        }
    }
    return idlest;
}

// VerifyClientCertIfGiven: Qt's VerifyPeer reports a client that sent no certificate as an
// error, which this mode forgives; every other error ends the handshake.
void TlsListener::forgive(QSslSocket *socket, const QList<QSslError> &errors)
{
    const bool onlyNoCertificate = std::all_of(errors.begin(), errors.end(),
        [](const QSslError &error) { return error.error() == QSslError::NoPeerCertificate; });
    if (m_clientAuth == ClientAuth::VerifyClientCertIfGiven && onlyNoCertificate)
        socket->ignoreSslErrors();
}

void TlsListener::report(QSslSocket *socket, QAbstractSocket::SocketError error)
{
    const bool ours = error == QAbstractSocket::SslInvalidUserDataError
        || error == QAbstractSocket::SslInternalError;
    if (!ours)
        return; // the client's business
    const QString message = socket->errorString();
    socket->abort(); // Qt would leave it open until the handshake timeout
    if (!m_reported)
        emit configurationError(message);
    m_reported = true;
}
