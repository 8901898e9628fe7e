#include "payloaddiff.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace PayloadDiff {

namespace {

// A value shown in a line: compact JSON, cut to a readable length.
constexpr qsizetype MaxValueChars = 80;

QJsonValue parsed(const QString &text)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError)
        return QJsonValue(text);
    return doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object());
}

QString shown(const QJsonValue &value, bool masked)
{
    if (masked)
        return Redaction::Mask;
    QString text;
    if (value.isObject())
        text = QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    else if (value.isArray())
        text = QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    else // a scalar: wrapped in an array to write it as JSON, then unwrapped
        text = QString::fromUtf8(QJsonDocument(QJsonArray {value}).toJson(QJsonDocument::Compact))
                   .mid(1)
                   .chopped(1);
    return text.size() > MaxValueChars ? text.left(MaxValueChars - 1) + QChar(0x2026) : text;
}

struct Walker
{
    const Redaction::Redactor *redactor = nullptr;
    QStringList out;

    void walk(const QString &path, const QJsonValue &before, const QJsonValue &after, bool masked)
    {
        if (before == after)
            return;
        if (!masked && before.isObject() && after.isObject())
            return objects(path, before.toObject(), after.toObject());
        if (!masked && before.isArray() && after.isArray())
            return arrays(path, before.toArray(), after.toArray());
        out << QStringLiteral("~ %1: %2 \u2192 %3")
                   .arg(path.isEmpty() ? QStringLiteral("(whole payload)") : path,
                       shown(before, masked), shown(after, masked));
    }

    void objects(const QString &path, const QJsonObject &before, const QJsonObject &after)
    {
        const QString prefix = path.isEmpty() ? QString() : path + u'.';
        for (auto it = before.constBegin(); it != before.constEnd(); ++it) {
            const bool masked = redactor && redactor->isSensitiveKey(it.key());
            if (!after.contains(it.key()))
                out << u"- "_qs + prefix + it.key();
            else
                walk(prefix + it.key(), it.value(), after.value(it.key()), masked);
        }
        for (auto it = after.constBegin(); it != after.constEnd(); ++it) {
            if (!before.contains(it.key()))
                out << QStringLiteral("+ %1%2: %3")
                           .arg(prefix, it.key(),
                               shown(it.value(), redactor && redactor->isSensitiveKey(it.key())));
        }
    }

    void arrays(const QString &path, const QJsonArray &before, const QJsonArray &after)
    {
        const qsizetype common = std::min(before.size(), after.size());
        for (qsizetype i = 0; i < common; ++i)
            walk(QStringLiteral("%1[%2]").arg(path).arg(i), before.at(i), after.at(i), false);
        for (qsizetype i = common; i < before.size(); ++i)
            out << QStringLiteral("- %1[%2]").arg(path).arg(i);
        for (qsizetype i = common; i < after.size(); ++i)
            out << QStringLiteral("+ %1[%2]: %3").arg(path).arg(i).arg(shown(after.at(i), false));
    }
};

} // namespace

QStringList lines(const QString &before, const QString &after, const Redaction::Redactor *redactor)
{
    Walker walker;
    walker.redactor = redactor;
    walker.walk(QString(), parsed(before), parsed(after), false);
    return walker.out;
}

QString summary(const QStringList &lines)
{
    qsizetype changed = 0, added = 0, removed = 0;
    for (const QString &line : lines) {
        if (line.startsWith(u'+'))
            ++added;
        else if (line.startsWith(u'-'))
            ++removed;
        else
            ++changed;
    }
    QStringList parts;
    if (changed)
        parts << QStringLiteral("%1 changed").arg(changed);
    if (added)
        parts << QStringLiteral("%1 added").arg(added);
    if (removed)
        parts << QStringLiteral("%1 removed").arg(removed);
    return parts.isEmpty() ? QStringLiteral("no change") : parts.join(u", "_qs);
}

} // namespace PayloadDiff
