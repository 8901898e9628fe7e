// `outboxctl serve --web.config.file`: the Prometheus exporter-toolkit's web config, the subset
// of v0.8.2 (what Prometheus 2.42's `promtool check web-config` accepts) that serve honours:
//   tls_server_config: cert_file, key_file, client_auth_type, client_ca_file, min_version,
//                      max_version, cipher_suites
//   http_server_config: headers
//   basic_auth_users: user: bcrypt hash
// Read strictly, as the toolkit's yaml.UnmarshalStrict: an unknown or repeated key is an error,
// and so is a key of the toolkit that serve cannot honour (it is named as such). Relative paths
// are taken from the file's folder. Every check that needs no certificate file is done here
// (hashes, header names and values, versions, cipher names, client_auth_type); the
// certificates are loaded by TlsSettings.
#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>
#include <utility>

enum class ClientAuth {
    NoClientCert,
    RequestClientCert,
    RequireAnyClientCert,
    VerifyClientCertIfGiven,
    RequireAndVerifyClientCert
};

struct TlsServerConfig
{
    bool enabled = false; // cert_file, key_file, client_ca_file or client_auth_type given
    QString certFile; // absolute
    QString keyFile;
    QString clientCaFile; // empty: none
    ClientAuth clientAuth = ClientAuth::NoClientCert;
    int minVersion = 12; // TLS 1.minVersion: 12 or 13
    int maxVersion = 13;
    QStringList ciphers; // OpenSSL names of the TLS 1.2 suites cipher_suites lists; empty: FS+AEAD

    bool operator==(const TlsServerConfig &) const = default;
};

struct WebConfig
{
    static constexpr qint64 MaxFileBytes = 1024 * 1024;

    TlsServerConfig tls;
    QList<std::pair<QByteArray, QByteArray>> headers; // in the file's order
    QHash<QByteArray, QByteArray> users; // name -> bcrypt hash

    bool operator==(const WebConfig &) const = default;

    // Reads and checks the file (through BoundedFile); the error names the file and the line.
    static std::optional<WebConfig> read(const QString &path, QString *error);
    // The same for text whose relative paths are taken from folder.
    static std::optional<WebConfig> parse(
        const QByteArray &text, const QString &folder, QString *error);
};
