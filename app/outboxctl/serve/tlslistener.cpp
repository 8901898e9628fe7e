#include "tlslistener.h"

#include "boundedfile.h"

#include <QSslCipher>
#include <QSslKey>
#include <QSslSocket>
#include <limits>
#include <unistd.h>

namespace {

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

std::optional<QList<QSslCipher>> ciphers(const QStringList &names, QString *error)
{
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
    const auto suites = key ? ciphers(config.ciphers, error) : std::nullopt;
    if (!suites)
        return std::nullopt;
    QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
    ssl.setLocalCertificateChain(*chain);
    ssl.setPrivateKey(*key);
    ssl.setProtocol(protocol(config));
    if (!suites->isEmpty())
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
    if (underWay.isEmpty())
        return m_server && m_server->closeOldestIdle();
    QSslSocket *oldest = underWay.constFirst();
    oldest->abort();
    oldest->deleteLater(); // QSslServer forgets it when it is destroyed
    return true;
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
