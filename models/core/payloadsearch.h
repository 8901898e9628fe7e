// "Payload contains", as the operator typed it in the Events page or `--payload-contains`: a
// JSON fragment (text starting with { or [) finds the events whose payload contains it, as
// PostgreSQL's jsonb @> reads containment ({"orderId": 4711} finds every payload with that key
// and value, at the top level; nested objects and arrays likewise); any other text is a plain,
// case-insensitive substring of the payload, LIKE wildcards matched literally.
// Checked before any query: at most MaxBytes, a fragment must parse, and a search never learns
// a redacted value: a fragment naming a key that redaction hides is refused, and plain text is
// refused while any key is redacted (a substring could match inside a redacted value, and the
// engines cannot take the redacted keys out of the text they search).
#pragma once

#include <QJsonValue>
#include <QString>
#include <QStringList>

struct PayloadSearch
{
    enum class Kind { None, Fragment, Text };
    static constexpr qsizetype MaxBytes = 4096;

    Kind kind = Kind::None;
    QJsonValue fragment; // Kind::Fragment: an object or an array
    QString text; // Kind::Text

    // The search `input` asks for (None for blank input); *error says in one line why it
    // cannot be run (too long, not JSON, a redacted key), and then the kind is None.
    // `sensitiveKeys`: the words redaction hides (Redaction::sensitiveKeys).
    static PayloadSearch parse(
        const QString &input, const QStringList &sensitiveKeys, QString *error);
    // The same without the redaction check, for building SQL from a filter already checked.
    static PayloadSearch read(const QString &input, QString *error = nullptr);
    // Why no search runs through the profile `profileName` when it maps no payload column: the
    // window's tooltip on the disabled field, the CLI's refusal (nothing is queried).
    static QString notAvailableReason(const QString &profileName);
};
