#include "traceevent.h"

#include <QJsonArray>
#include <QJsonDocument>

TraceEvent::TraceEvent(const QString &kind, qint64 t)
{
    if (t >= 0)
        set(QStringLiteral("t"), t);
    set(QStringLiteral("event"), kind);
}

TraceEvent &TraceEvent::set(const QString &key, const QJsonValue &value)
{
    for (auto &field : m_fields) {
        if (field.first == key) {
            field.second = value;
            return *this;
        }
    }
    m_fields.append({key, value});
    return *this;
}

QJsonValue TraceEvent::value(const QString &key) const
{
    for (const auto &field : m_fields) {
        if (field.first == key)
            return field.second;
    }
    return QJsonValue(QJsonValue::Undefined);
}

QString TraceEvent::toJsonLine() const
{
    QStringList parts;
    for (const auto &[key, value] : m_fields) {
        // Serialise through a one-element array so that strings are escaped exactly as JSON wants.
        const QByteArray array
            = QJsonDocument(QJsonArray {key, value}).toJson(QJsonDocument::Compact);
        const QByteArray inner = array.mid(1, array.size() - 2); // "key",value
        const qsizetype comma = inner.indexOf("\",") + 1;
        parts << QString::fromUtf8(inner.left(comma)) + QLatin1Char(':')
                + QString::fromUtf8(inner.mid(comma + 1));
    }
    return QLatin1Char('{') + parts.join(QLatin1Char(',')) + QLatin1Char('}');
}
