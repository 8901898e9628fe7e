#include "redaction.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace Redaction {

namespace {

// A word this short is a whole word of the name or nothing: "ssn" would otherwise hide
// "className" and "business".
constexpr qsizetype ShortWord = 3;
// Key names remembered by one Redactor at most: payloads with ever new keys (IDs as keys)
// cost a normalisation each, never unbounded memory.
constexpr qsizetype MaxRemembered = 10000;

// The words of a name: split at separators and at lower-to-upper case changes, lower-cased.
// "userSSN" -> user, ssn; "api_key" -> api, key; "X-Pwd" -> x, pwd.
QStringList wordsOf(const QString &name)
{
    QStringList words;
    QString word;
    QChar previous;
    for (const QChar c : name) {
        const bool boundary
            = !c.isLetterOrNumber() || (c.isUpper() && !previous.isNull() && previous.isLower());
        if (boundary && !word.isEmpty()) {
            words << word.toLower();
            word.clear();
        }
        if (c.isLetterOrNumber())
            word += c;
        previous = c;
    }
    if (!word.isEmpty())
        words << word.toLower();
    return words;
}

} // namespace

QStringList defaultSensitiveKeys()
{
    return {// passwords and secrets
        QStringLiteral("password"), QStringLiteral("passwd"), QStringLiteral("pwd"),
        QStringLiteral("passphrase"), QStringLiteral("secret"), QStringLiteral("pin"),
        // tokens, keys and credentials
        QStringLiteral("token"), QStringLiteral("authorization"), QStringLiteral("apikey"),
        QStringLiteral("accesskey"), QStringLiteral("privatekey"), QStringLiteral("signingkey"),
        QStringLiteral("credential"),
        // card and bank numbers
        QStringLiteral("card"), QStringLiteral("cvv"), QStringLiteral("cvc"),
        QStringLiteral("iban"), QStringLiteral("accountnumber"), QStringLiteral("bankaccount"),
        QStringLiteral("routingnumber"), QStringLiteral("sortcode"),
        // national IDs
        QStringLiteral("ssn"), QStringLiteral("socialsecurity"), QStringLiteral("nationalid"),
        QStringLiteral("taxid"), QStringLiteral("passport"),
        // contact details
        QStringLiteral("email"), QStringLiteral("phone")};
}

QStringList sensitiveKeys(const QSettings &settings)
{
    return settings.value(SettingsKey, defaultSensitiveKeys()).toStringList();
}

QStringList dashboardSensitiveKeys()
{
    return sensitiveKeys(
        QSettings(QStringLiteral("OutboxHealth"), QStringLiteral("Outbox Health")));
}

QString normalisedName(const QString &name)
{
    QString out;
    out.reserve(name.size());
    for (const QChar c : name) {
        if (c.isLetterOrNumber())
            out += c.toLower();
    }
    return out;
}

bool isSensitiveKey(const QString &key, const QStringList &sensitiveKeys)
{
    return Redactor(sensitiveKeys).isSensitiveKey(key);
}

QJsonValue redactValue(const QJsonValue &value, const QStringList &sensitiveKeys)
{
    return Redactor(sensitiveKeys).redactValue(value);
}

QString redactJson(const QString &payload, const QStringList &sensitiveKeys)
{
    return Redactor(sensitiveKeys).redactJson(payload);
}

Redactor::Redactor(const QStringList &sensitiveKeys)
{
    for (const QString &sensitive : sensitiveKeys) {
        const QString word = normalisedName(sensitive);
        if (!word.isEmpty())
            (word.size() > ShortWord ? m_long : m_short) << word;
    }
}

bool Redactor::isSensitiveKey(const QString &key) const
{
    const auto known = m_verdicts.constFind(key);
    if (known != m_verdicts.cend())
        return *known;
    const QString name = normalisedName(key);
    bool sensitive = std::any_of(m_long.cbegin(), m_long.cend(),
        [&name](const QString &word) { return name.contains(word); });
    if (!sensitive && !m_short.isEmpty()) {
        const QStringList words = wordsOf(key);
        sensitive = std::any_of(m_short.cbegin(), m_short.cend(),
            [&words](const QString &word) { return words.contains(word); });
    }
    if (m_verdicts.size() < MaxRemembered)
        m_verdicts.insert(key, sensitive);
    return sensitive;
}

QJsonValue Redactor::redactValue(const QJsonValue &value) const
{
    if (value.isArray()) {
        QJsonArray array;
        for (const QJsonValue &item : value.toArray())
            array.append(redactValue(item));
        return array;
    }
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        QJsonObject out;
        for (auto it = object.begin(); it != object.end(); ++it)
            out.insert(
                it.key(), isSensitiveKey(it.key()) ? QJsonValue(Mask) : redactValue(it.value()));
        return out;
    }
    return value;
}

QString Redactor::redactJson(const QString &payload) const
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(payload.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || document.isNull())
        return NotJson;
    const QJsonValue redacted = redactValue(
        document.isArray() ? QJsonValue(document.array()) : QJsonValue(document.object()));
    const QJsonDocument out = redacted.isArray() ? QJsonDocument(redacted.toArray())
                                                 : QJsonDocument(redacted.toObject());
    return QString::fromUtf8(out.toJson(QJsonDocument::Compact));
}

} // namespace Redaction
