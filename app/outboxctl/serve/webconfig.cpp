#include "webconfig.h"

#include "basicauth.h"
#include "boundedfile.h"

#include <QDir>
#include <QFileInfo>
#include <QSet>
#include <initializer_list>
#include <stdexcept>
#include <yaml-cpp/yaml.h>

namespace {

// A problem in the file, thrown while reading it and caught once in WebConfig::parse.
class WebConfigProblem : public std::runtime_error
{
public:
    WebConfigProblem(const YAML::Mark &mark, const QString &text)
        : std::runtime_error("web config")
        , message(
              mark.line >= 0 ? QStringLiteral("line %1: %2").arg(mark.line + 1).arg(text) : text)
    { }
    QString message;
};

using Names = std::initializer_list<const char *>;

// Missing (yaml-cpp's zombie node for a key that is not there) or written as nothing.
bool absent(const YAML::Node &node)
{
    return !node.IsDefined() || node.IsNull();
}

QString text(const std::string &value)
{
    return QString::fromStdString(value);
}

QString joined(Names names)
{
    QStringList list;
    for (const char *name : names)
        list << QString::fromLatin1(name);
    return list.join(u", "_qs);
}

bool isOneOf(const std::string &key, Names names)
{
    return std::any_of(
        names.begin(), names.end(), [&key](const char *name) { return key == name; });
}

// A mapping (or nothing) whose keys are all known and given once; the exporter-toolkit's keys
// that serve does not honour are refused by name rather than silently ignored.
void checkKeys(const YAML::Node &map, const QString &section, Names known, Names unsupported = {})
{
    if (absent(map))
        return;
    if (!map.IsMap())
        throw WebConfigProblem(map.Mark(), section + u" must be a mapping of " + joined(known));
    QSet<QString> seen;
    for (const auto &entry : map) {
        const QString key = text(entry.first.as<std::string>());
        if (seen.contains(key))
            throw WebConfigProblem(
                entry.first.Mark(), QStringLiteral("%1 is given twice").arg(key));
        seen.insert(key);
        if (isOneOf(key.toStdString(), unsupported))
            throw WebConfigProblem(entry.first.Mark(),
                QStringLiteral("%1 in %2 is an exporter-toolkit setting that outboxctl serve "
                               "does not support")
                    .arg(key, section));
        if (!isOneOf(key.toStdString(), known))
            throw WebConfigProblem(entry.first.Mark(),
                QStringLiteral("unknown key %1 in %2 (known: %3)")
                    .arg(key, section, joined(known)));
    }
}

QString scalar(const YAML::Node &map, const char *key)
{
    const YAML::Node node = map[key];
    if (absent(node))
        return {};
    if (!node.IsScalar())
        throw WebConfigProblem(
            node.Mark(), QStringLiteral("%1 must be a single value").arg(QLatin1StringView(key)));
    return text(node.Scalar());
}

QString pathIn(const QString &folder, const QString &path)
{
    return path.isEmpty() || QDir::isAbsolutePath(path) ? path
                                                        : QDir(folder).absoluteFilePath(path);
}

int tlsVersion(const YAML::Node &tls, const char *key, int fallback)
{
    const QString value = scalar(tls, key);
    if (value.isEmpty())
        return fallback;
    if (value == u"TLS12"_qs || value == u"TLS13"_qs)
        return value.right(2).toInt();
    const YAML::Mark mark = tls[key].Mark();
    if (value == u"TLS10"_qs || value == u"TLS11"_qs)
        throw WebConfigProblem(mark,
            QStringLiteral("%1 %2: outboxctl serve offers TLS 1.2 and 1.3 only (OpenSSL 3 turns "
                           "the older versions off)")
                .arg(QLatin1StringView(key), value));
    throw WebConfigProblem(
        mark, QStringLiteral("unknown TLS version: %1 (TLS12 or TLS13)").arg(value));
}

ClientAuth clientAuth(const YAML::Node &tls)
{
    static const QHash<QString, ClientAuth> byName = {
        {QString(), ClientAuth::NoClientCert},
        {u"NoClientCert"_qs, ClientAuth::NoClientCert},
        {u"RequestClientCert"_qs, ClientAuth::RequestClientCert},
        {u"RequireAnyClientCert"_qs, ClientAuth::RequireAnyClientCert},
        {u"RequireClientCert"_qs, ClientAuth::RequireAnyClientCert}, // the toolkit's old name
        {u"VerifyClientCertIfGiven"_qs, ClientAuth::VerifyClientCertIfGiven},
        {u"RequireAndVerifyClientCert"_qs, ClientAuth::RequireAndVerifyClientCert},
    };
    const QString name = scalar(tls, "client_auth_type");
    const auto found = byName.constFind(name);
    if (found == byName.cend())
        throw WebConfigProblem(tls["client_auth_type"].Mark(),
            QStringLiteral("invalid client_auth_type %1 (NoClientCert, RequestClientCert, "
                           "RequireAnyClientCert, VerifyClientCertIfGiven or "
                           "RequireAndVerifyClientCert)")
                .arg(name));
    return found.value();
}

// Go's names of the suites its crypto/tls calls secure (those the toolkit accepts) and
// OpenSSL's names for them; the TLS 1.3 suites map to "": neither Go nor OpenSSL through Qt
// lets a server choose them.
struct CipherName
{
    const char *go;
    const char *openSsl;
};
constexpr CipherName CipherNames[] = {
    {"TLS_RSA_WITH_AES_128_CBC_SHA", "AES128-SHA"},
    {"TLS_RSA_WITH_AES_256_CBC_SHA", "AES256-SHA"},
    {"TLS_RSA_WITH_AES_128_GCM_SHA256", "AES128-GCM-SHA256"},
    {"TLS_RSA_WITH_AES_256_GCM_SHA384", "AES256-GCM-SHA384"},
    {"TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA", "ECDHE-ECDSA-AES128-SHA"},
    {"TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA", "ECDHE-ECDSA-AES256-SHA"},
    {"TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", "ECDHE-RSA-AES128-SHA"},
    {"TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA", "ECDHE-RSA-AES256-SHA"},
    {"TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "ECDHE-ECDSA-AES128-GCM-SHA256"},
    {"TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "ECDHE-ECDSA-AES256-GCM-SHA384"},
    {"TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "ECDHE-RSA-AES128-GCM-SHA256"},
    {"TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", "ECDHE-RSA-AES256-GCM-SHA384"},
    {"TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", "ECDHE-RSA-CHACHA20-POLY1305"},
    {"TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", "ECDHE-ECDSA-CHACHA20-POLY1305"},
    {"TLS_AES_128_GCM_SHA256", ""},
    {"TLS_AES_256_GCM_SHA384", ""},
    {"TLS_CHACHA20_POLY1305_SHA256", ""},
};

QStringList ciphers(const YAML::Node &tls, int minVersion)
{
    const YAML::Node list = tls["cipher_suites"];
    if (absent(list))
        return {};
    if (!list.IsSequence())
        throw WebConfigProblem(
            list.Mark(), u"cipher_suites must be a list of cipher suite names"_qs);
    QStringList openSslNames;
    for (const auto &item : list) {
        const std::string name = item.IsScalar() ? item.Scalar() : std::string();
        const auto found = std::find_if(std::begin(CipherNames), std::end(CipherNames),
            [&name](const CipherName &known) { return name == known.go; });
        if (found == std::end(CipherNames))
            throw WebConfigProblem(
                item.Mark(), QStringLiteral("unknown cipher: %1").arg(text(name)));
        if (*found->openSsl != '\0')
            openSslNames << QString::fromLatin1(found->openSsl);
    }
    if (openSslNames.isEmpty() && minVersion < 13)
        throw WebConfigProblem(list.Mark(),
            u"cipher_suites lists TLS 1.3 suites only, which a server cannot choose: list TLS 1.2 "
            "suites too, or set min_version: TLS13"_qs);
    return openSslNames;
}

void checkTlsConsistency(const YAML::Node &tls, const TlsServerConfig &config)
{
    const YAML::Mark mark = tls.Mark();
    if (!config.enabled) {
        if (tls.IsMap() && tls.size() > 0)
            throw WebConfigProblem(mark,
                u"tls_server_config without cert_file and key_file: TLS is off, so its other "
                "settings would be ignored"_qs);
        return;
    }
    if (config.certFile.isEmpty())
        throw WebConfigProblem(mark, u"missing cert_file in tls_server_config"_qs);
    if (config.keyFile.isEmpty())
        throw WebConfigProblem(mark, u"missing key_file in tls_server_config"_qs);
    if (!config.clientCaFile.isEmpty() && config.clientAuth == ClientAuth::NoClientCert)
        throw WebConfigProblem(mark,
            u"client_ca_file is set but client_auth_type is NoClientCert (the client CA's "
            "have been configured without a client auth policy)"_qs);
    if (config.minVersion > config.maxVersion)
        throw WebConfigProblem(
            mark, u"min_version is newer than max_version: no client could connect"_qs);
}

TlsServerConfig tlsConfig(const YAML::Node &tls, const QString &folder)
{
    checkKeys(tls, u"tls_server_config"_qs,
        {"cert_file", "key_file", "client_auth_type", "client_ca_file", "min_version",
            "max_version", "cipher_suites"},
        {"curve_preferences", "prefer_server_cipher_suites"});
    TlsServerConfig config;
    if (absent(tls))
        return config;
    config.certFile = pathIn(folder, scalar(tls, "cert_file"));
    config.keyFile = pathIn(folder, scalar(tls, "key_file"));
    config.clientCaFile = pathIn(folder, scalar(tls, "client_ca_file"));
    config.clientAuth = clientAuth(tls);
    config.enabled = !config.certFile.isEmpty() || !config.keyFile.isEmpty()
        || !config.clientCaFile.isEmpty() || !scalar(tls, "client_auth_type").isEmpty();
    config.minVersion = tlsVersion(tls, "min_version", 12);
    config.maxVersion = tlsVersion(tls, "max_version", 13);
    config.ciphers = ciphers(tls, config.minVersion);
    checkTlsConsistency(tls, config);
    return config;
}

// The toolkit's list: only these headers, and these values where the header has a fixed set.
void checkHeader(const YAML::Mark &mark, const QString &name, const QString &value)
{
    static const QHash<QString, QStringList> allowed = {
        {u"Strict-Transport-Security"_qs, {}},
        {u"X-Content-Type-Options"_qs, {u"nosniff"_qs}},
        {u"X-Frame-Options"_qs, {u"deny"_qs, u"sameorigin"_qs}},
        {u"X-XSS-Protection"_qs, {}},
        {u"Content-Security-Policy"_qs, {}},
    };
    const auto found = allowed.constFind(name);
    if (found == allowed.cend())
        throw WebConfigProblem(mark,
            QStringLiteral("HTTP header \"%1\" can not be configured (only %2)")
                .arg(name, QStringList(allowed.keys()).join(u", "_qs)));
    if (!found.value().isEmpty() && !found.value().contains(value))
        throw WebConfigProblem(mark,
            QStringLiteral("invalid value for %1: expected one of %2, not \"%3\"")
                .arg(name, found.value().join(u", "_qs), value));
    if (std::any_of(value.begin(), value.end(), [](QChar c) { return c.unicode() < 0x20; }))
        throw WebConfigProblem(
            mark, QStringLiteral("the value of %1 holds a control character").arg(name));
}

QList<std::pair<QByteArray, QByteArray>> headers(const YAML::Node &http)
{
    checkKeys(http, u"http_server_config"_qs, {"headers"}, {"http2"});
    QList<std::pair<QByteArray, QByteArray>> result;
    if (absent(http) || absent(http["headers"]))
        return result;
    const YAML::Node map = http["headers"];
    if (!map.IsMap())
        throw WebConfigProblem(
            map.Mark(), u"headers must be a mapping of header names to values"_qs);
    QSet<QString> seen;
    for (const auto &entry : map) {
        const QString name = text(entry.first.as<std::string>());
        if (!entry.second.IsScalar())
            throw WebConfigProblem(
                entry.second.Mark(), QStringLiteral("the value of %1 must be text").arg(name));
        const QString value = text(entry.second.Scalar());
        if (seen.contains(name))
            throw WebConfigProblem(
                entry.first.Mark(), QStringLiteral("header %1 is given twice").arg(name));
        seen.insert(name);
        checkHeader(entry.first.Mark(), name, value);
        result.append({name.toUtf8(), value.toUtf8()});
    }
    return result;
}

QHash<QByteArray, QByteArray> users(const YAML::Node &map)
{
    QHash<QByteArray, QByteArray> result;
    if (absent(map))
        return result;
    if (!map.IsMap())
        throw WebConfigProblem(
            map.Mark(), u"basic_auth_users must be a mapping of user names to bcrypt hashes"_qs);
    for (const auto &entry : map) {
        const QByteArray user = QByteArray::fromStdString(entry.first.as<std::string>());
        const QString quoted = u'"' + QString::fromUtf8(user) + u'"';
        if (result.contains(user))
            throw WebConfigProblem(
                entry.first.Mark(), QStringLiteral("user %1 is given twice").arg(quoted));
        if (user.contains(':'))
            throw WebConfigProblem(entry.first.Mark(),
                QStringLiteral("user name %1 holds a ':', which Basic authentication cannot carry")
                    .arg(quoted));
        const QByteArray hash = entry.second.IsScalar()
            ? QByteArray::fromStdString(entry.second.Scalar())
            : QByteArray();
        QString problem;
        if (!Bcrypt::isValidHash(hash, &problem))
            throw WebConfigProblem(entry.second.Mark(),
                QStringLiteral("basic_auth_users: the hash of user %1 is %2").arg(quoted, problem));
        result.insert(user, hash);
    }
    return result;
}

WebConfig configOf(const YAML::Node &root, const QString &folder)
{
    WebConfig config;
    if (absent(root))
        return config; // an empty file: plain HTTP, no users, as the toolkit
    checkKeys(root, u"the web config"_qs,
        {"tls_server_config", "http_server_config", "basic_auth_users"});
    config.tls = tlsConfig(root["tls_server_config"], folder);
    const YAML::Node http = root["http_server_config"];
    if (http.IsDefined())
        config.headers = headers(http);
    config.users = users(root["basic_auth_users"]);
    return config;
}

} // namespace

std::optional<WebConfig> WebConfig::parse(
    const QByteArray &yaml, const QString &folder, QString *error)
{
    try {
        return configOf(YAML::Load(yaml.toStdString()), folder);
    } catch (const WebConfigProblem &problem) {
        *error = problem.message;
    } catch (const YAML::Exception &exception) {
        *error = WebConfigProblem(exception.mark, text(exception.msg)).message;
    }
    return std::nullopt;
}

std::optional<WebConfig> WebConfig::read(const QString &path, QString *error)
{
    const auto text = BoundedFile::read(path, MaxFileBytes, u"web config file"_qs, error);
    if (!text)
        return std::nullopt;
    auto config = parse(*text, QFileInfo(path).absolutePath(), error);
    if (!config)
        *error = QStringLiteral("web config file %1: %2").arg(path, *error);
    return config;
}
