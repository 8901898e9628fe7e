#include "payloadsearch.h"

#include "redaction.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <algorithm>

namespace {

// The first key, at any depth of `value`, that `redactor` hides; empty when none.
QString sensitiveKeyIn(const QJsonValue &value, const Redaction::Redactor &redactor)
{
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            if (redactor.isSensitiveKey(it.key()))
                return it.key();
            if (QString key = sensitiveKeyIn(it.value(), redactor); !key.isEmpty())
                return key;
        }
    } else if (value.isArray()) {
        for (const QJsonValue element : value.toArray()) {
            if (QString key = sensitiveKeyIn(element, redactor); !key.isEmpty())
                return key;
        }
    }
    return {};
}

// A key SQLite's JSON paths cannot name ($."a\"b" has no escape), refused on every engine so
// that a search means the same everywhere.
bool hasQuotedKey(const QJsonValue &value)
{
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            if (it.key().contains(QLatin1Char('"')) || hasQuotedKey(it.value()))
                return true;
        }
    } else if (value.isArray()) {
        for (const QJsonValue element : value.toArray()) {
            if (hasQuotedKey(element))
                return true;
        }
    }
    return false;
}

// How deep a fragment may nest: MariaDB's JSON functions refuse more than 32 levels, and on
// SQLite each level is a subquery of the statement.
constexpr int MaxDepth = 32;

int depthOf(const QJsonValue &value)
{
    int deepest = 0;
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.constBegin(); it != object.constEnd(); ++it)
            deepest = std::max(deepest, depthOf(it.value()));
    } else if (value.isArray()) {
        for (const QJsonValue element : value.toArray())
            deepest = std::max(deepest, depthOf(element));
    } else {
        return 0;
    }
    return deepest + 1;
}

} // namespace

PayloadSearch PayloadSearch::read(const QString &input, QString *error)
{
    const auto fail = [error](const QString &why) {
        if (error)
            *error = why;
        return PayloadSearch {};
    };
    const QString trimmed = input.trimmed();
    if (trimmed.isEmpty())
        return {};
    if (trimmed.toUtf8().size() > MaxBytes) {
        return fail(QStringLiteral("payload search too long: at most %1 bytes, got %2")
                        .arg(MaxBytes)
                        .arg(trimmed.toUtf8().size()));
    }
    PayloadSearch search;
    if (!trimmed.startsWith(QLatin1Char('{')) && !trimmed.startsWith(QLatin1Char('['))) {
        search.kind = Kind::Text;
        search.text = trimmed;
        return search;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(trimmed.toUtf8(), &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        return fail(QStringLiteral("payload search is not valid JSON (%1 at offset %2); plain "
                                   "text must not start with { or [")
                        .arg(parseError.errorString())
                        .arg(parseError.offset));
    }
    search.kind = Kind::Fragment;
    search.fragment
        = document.isObject() ? QJsonValue(document.object()) : QJsonValue(document.array());
    if (const int depth = depthOf(search.fragment); depth > MaxDepth) {
        return fail(QStringLiteral("payload search nests too deep: at most %1 levels, got %2")
                        .arg(MaxDepth)
                        .arg(depth));
    }
    if (hasQuotedKey(search.fragment))
        return fail(QStringLiteral("payload search: a key with a double quote cannot be searched"));
    return search;
}

PayloadSearch PayloadSearch::parse(
    const QString &input, const QStringList &sensitiveKeys, QString *error)
{
    QString why;
    PayloadSearch search = read(input, &why);
    if (search.kind == Kind::Fragment) {
        const QString key = sensitiveKeyIn(search.fragment, Redaction::Redactor(sensitiveKeys));
        if (!key.isEmpty()) {
            why = QStringLiteral("payload search cannot name \"%1\": its value is redacted")
                      .arg(key);
            search = {};
        }
    } else if (search.kind == Kind::Text
        && std::any_of(sensitiveKeys.cbegin(), sensitiveKeys.cend(),
            [](const QString &key) { return !key.trimmed().isEmpty(); })) {
        why = QStringLiteral("plain-text payload search is off while payload values are redacted "
                             "(it could match inside a redacted value); search with a JSON "
                             "fragment such as {\"orderId\": 4711}");
        search = {};
    }
    if (error)
        *error = why;
    return search;
}

QString PayloadSearch::notAvailableReason(const QString &profileName)
{
    return QStringLiteral("payload search is not available: the profile maps no payload column "
                          "(profile %1)")
        .arg(profileName);
}
