#include "sourcereader.h"

#include <QSqlError>

SourceReader::SourceReader(const QSqlDatabase &db, const OutboxProfile *profile)
    : m_profile(profile)
    , m_postgres(db.driverName() == QLatin1String("QPSQL"))
    , m_source(!profile || profile->isNative() ? u"delivery_outbox"_qs
                                               : profile->source(OutboxProfile::engineOf(db)))
    , m_transaction(db)
{
    if (!m_transaction.isActive())
        m_error = m_transaction.errorText();
}

bool SourceReader::has(OutboxProfile::Column column) const
{
    return isNative() || m_profile->isAvailable(column);
}

bool SourceReader::hasStatus(const QString &status) const
{
    return isNative() || m_profile->statuses().contains(status);
}

QString SourceReader::profileName() const
{
    return m_profile ? m_profile->name() : u"native"_qs;
}

QSqlQuery *SourceReader::run(const QString &sql, const Bindings &values)
{
    QSqlQuery *query = m_transaction.prepare(sql);
    if (!query) {
        m_error = m_transaction.errorText();
        return nullptr;
    }
    for (const auto &[name, value] : values)
        query->bindValue(name, value);
    if (!query->exec()) {
        m_error = query->lastError().text().simplified();
        return nullptr;
    }
    return query;
}

QSqlQuery *SourceReader::prepare(const QString &sql)
{
    QSqlQuery *query = m_transaction.prepare(sql);
    if (!query)
        m_error = m_transaction.errorText();
    return query;
}
