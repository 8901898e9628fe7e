// HTTPS for `outboxctl serve`: the QSslConfiguration a web config's tls_server_config asks for,
// and the QSslServer that serves with it (QSslServer is handed to HttpServer::serve, which takes
// its connections once their handshake is done). The exporter-toolkit's client_auth_type
// values map onto Qt's peer verification as follows:
//   NoClientCert               VerifyNone
//   RequestClientCert          QueryPeer (asked for, not required, not verified)
//   RequireAnyClientCert       QueryPeer, a missing certificate fatal (not verified)
//   VerifyClientCertIfGiven    VerifyPeer, only "no certificate" forgiven
//   RequireAndVerifyClientCert VerifyPeer, a missing certificate fatal
// A client certificate is verified against client_ca_file, else the system's CAs.
#pragma once

#include "httpserver.h"
#include "webconfig.h"

#include <QElapsedTimer>
#include <QSslConfiguration>
#include <QSslServer>
#include <optional>

namespace TlsSettings {

constexpr qint64 MaxFileBytes = 1024 * 1024;

// Loads the certificate (and any chain after it), the key (PEM, RSA or EC, unencrypted) and
// the client CAs, each through BoundedFile; nothing, with the reason, when one cannot be used
// or the key is not the certificate's. TLS 1.2 offers the suites of cipher_suites, else those
// with forward secrecy and an AEAD cipher only (ECDHE; GCM, CCM or ChaCha20-Poly1305);
// TLS 1.3 keeps its suites.
std::optional<QSslConfiguration> configuration(const TlsServerConfig &config, QString *error);

} // namespace TlsSettings

// A handshake under way holds a descriptor as a served connection does, so both count against
// one cap: the server's (countAgainst), else HttpLimits' default. At the cap a new connection
// closes the handshake idle longest (since its last progress, else since it started) that has
// not made progress within ProgressGraceMs, else the server's connection that has waited
// longest for a request, else (every connection busy) itself: clients that connect and stay
// silent, however many and fast, close each other, not a handshake that is moving. A client
// that never sends its ClientHello is closed after HandshakeTimeoutMs.
class TlsListener : public QSslServer
{
    Q_OBJECT
public:
    static constexpr int HandshakeTimeoutMs = 5000;
    static constexpr int ProgressGraceMs = 1000;

    explicit TlsListener(QObject *parent = nullptr);

    // For the connections to come; the ones already open keep theirs.
    void apply(const QSslConfiguration &configuration, ClientAuth clientAuth);
    // Handshakes count against server's connection cap (server outlives the listener: it
    // owns it once serving).
    void countAgainst(HttpServer *server);
    int handshakesUnderWay() const;

signals:
    // A handshake failed for a reason of this side, not the client's: e.g. a key that does not
    // belong to the certificate (Qt finds that out at the first handshake only). The first
    // such failure after each apply(): later handshakes fail with vaguer messages.
    void configurationError(const QString &message);

protected:
    void incomingConnection(qintptr socketDescriptor) override;

private:
    void track(QSslSocket *socket);
    bool makeRoom();
    QSslSocket *idlestHandshake(const QList<QSslSocket *> &underWay) const;
    QList<QSslSocket *> handshakes() const;
    void forgive(QSslSocket *socket, const QList<QSslError> &errors);
    void report(QSslSocket *socket, QAbstractSocket::SocketError error);

    QElapsedTimer m_clock;
    HttpServer *m_server = nullptr;
    ClientAuth m_clientAuth = ClientAuth::NoClientCert;
    bool m_reported = false;
};
