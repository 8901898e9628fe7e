// One step of a simulation trace, printed as one JSON line with its keys in a stable,
// readable order ({"t":9,"event":"claim","event_id":"EVENT-1","ok":false,"reason":"NOT_DUE"}).
#pragma once

#include <QJsonValue>
#include <QList>
#include <QString>

class TraceEvent
{
public:
    TraceEvent() = default;
    TraceEvent(const QString &kind, qint64 t);

    TraceEvent &set(const QString &key, const QJsonValue &value);
    QJsonValue value(const QString &key) const;
    QString kind() const { return value(QStringLiteral("event")).toString(); }
    qint64 time() const { return qint64(value(QStringLiteral("t")).toDouble(-1)); }

    QString toJsonLine() const;

private:
    QList<std::pair<QString, QJsonValue>> m_fields;
};
