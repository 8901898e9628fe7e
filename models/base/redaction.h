// Hides sensitive values of an event's JSON payload before it is shown or exported: any key
// whose name contains a sensitive word keeps its name but its value becomes "***", at any
// depth. Names are compared case- and separator-insensitively ("E-Mail", "e_mail", "eMail" and
// "EMAIL" all contain "email"); a word of three letters or fewer ("ssn", "pwd") must be a whole
// word of the name ("userSsn", "user_pwd", but not "className"), or it would hide too much.
// Text that is not JSON is never shown raw.
#pragma once

#include <QHash>
#include <QJsonValue>
#include <QSettings>
#include <QString>
#include <QStringList>

namespace Redaction {

inline const QString Mask = QStringLiteral("***");
inline const QString NotJson = QStringLiteral("[hidden: not JSON]");
// Where the dashboard keeps the list (Settings > redaction/sensitiveKeys).
inline const QString SettingsKey = QStringLiteral("redaction/sensitiveKeys");

// Passwords, secrets, tokens, keys, credentials, card and bank numbers, national IDs, e-mail
// addresses and phone numbers: see redaction.cpp for the words.
QStringList defaultSensitiveKeys();
// The list `settings` holds under SettingsKey, or the defaults.
QStringList sensitiveKeys(const QSettings &settings);
// The dashboard's own settings (organisation OutboxHealth, application "Outbox Health"), read
// by `outboxctl export` so that the CLI redacts exactly as the window does.
QStringList dashboardSensitiveKeys();

// Lower case, letters and digits only: "E-Mail" and "e_mail" become "email".
QString normalisedName(const QString &name);
bool isSensitiveKey(const QString &key, const QStringList &sensitiveKeys);
QJsonValue redactValue(const QJsonValue &value, const QStringList &sensitiveKeys);
// Compact JSON with every sensitive value masked, or NotJson.
QString redactJson(
    const QString &payload, const QStringList &sensitiveKeys = defaultSensitiveKeys());

// The same decisions for many payloads (an export of a million rows): the sensitive words
// normalised once, and each key name's verdict remembered, since payloads of one outbox
// repeat the same few dozen keys. Not thread-safe: one per thread.
class Redactor
{
public:
    explicit Redactor(const QStringList &sensitiveKeys = defaultSensitiveKeys());
    bool isSensitiveKey(const QString &key) const;
    QJsonValue redactValue(const QJsonValue &value) const;
    QString redactJson(const QString &payload) const;

private:
    QStringList m_long; // normalised words longer than ShortWord: contained anywhere
    QStringList m_short; // whole words only
    mutable QHash<QString, bool> m_verdicts;
};

} // namespace Redaction
