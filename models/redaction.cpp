#include "redaction.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace Redaction {

QStringList defaultSensitiveKeys()
{
    return {QStringLiteral("password"), QStringLiteral("secret"), QStringLiteral("token"),
        QStringLiteral("authorization"), QStringLiteral("card"), QStringLiteral("iban"),
        QStringLiteral("email")};
}

bool isSensitiveKey(const QString &key, const QStringList &sensitiveKeys)
{
    const QString name = key.toLower();
    for (const QString &word : sensitiveKeys) {
        if (!word.isEmpty() && name.contains(word.toLower()))
            return true;
    }
    return false;
}

QJsonValue redactValue(const QJsonValue &value, const QStringList &sensitiveKeys)
{
    if (value.isArray()) {
        QJsonArray array;
        for (const QJsonValue &item : value.toArray())
            array.append(redactValue(item, sensitiveKeys));
        return array;
    }
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        QJsonObject out;
        for (auto it = object.begin(); it != object.end(); ++it) {
            out.insert(it.key(),
                isSensitiveKey(it.key(), sensitiveKeys) ? QJsonValue(Mask)
                                                        : redactValue(it.value(), sensitiveKeys));
        }
        return out;
    }
    return value;
}

QString redactJson(const QString &payload, const QStringList &sensitiveKeys)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(payload.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || document.isNull())
        return NotJson;
    const QJsonValue redacted = redactValue(
        document.isArray() ? QJsonValue(document.array()) : QJsonValue(document.object()),
        sensitiveKeys);
    const QJsonDocument out = redacted.isArray() ? QJsonDocument(redacted.toArray())
                                                 : QJsonDocument(redacted.toObject());
    return QString::fromUtf8(out.toJson(QJsonDocument::Compact));
}

} // namespace Redaction
