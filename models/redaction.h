// Hides sensitive values of an event's JSON payload before it is shown or exported: any key
// whose lower-cased name contains a sensitive word ("cardNumber", "user_email",
// "Authorization") keeps its name but its value becomes "***", at any depth. Text that is
// not JSON is never shown raw.
#pragma once

#include <QJsonValue>
#include <QString>
#include <QStringList>

namespace Redaction {

inline const QString Mask = QStringLiteral("***");
inline const QString NotJson = QStringLiteral("[hidden: not JSON]");

// password, secret, token, authorization, card, iban, email
QStringList defaultSensitiveKeys();

bool isSensitiveKey(const QString &key, const QStringList &sensitiveKeys);
QJsonValue redactValue(const QJsonValue &value, const QStringList &sensitiveKeys);
// Compact JSON with every sensitive value masked, or NotJson.
QString redactJson(
    const QString &payload, const QStringList &sensitiveKeys = defaultSensitiveKeys());

} // namespace Redaction
