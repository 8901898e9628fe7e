#include "sourcereader.h"

#include "enginestatements.h"
#include "indexhint.h"
#include "queryerror.h"
#include "sqldialect.h"

#include <algorithm>

namespace {

// The statement with its values in place of the placeholders (numbers as they are, text
// quoted); longest names first, so that :now is not replaced inside :now2.
QString withValues(QString sql, SourceReader::Bindings values)
{
    std::sort(values.begin(), values.end(),
        [](const auto &a, const auto &b) { return a.first.size() > b.first.size(); });
    for (const auto &[name, value] : values) {
        const bool number
            = value.typeId() == QMetaType::LongLong || value.typeId() == QMetaType::Int;
        sql.replace(name,
            number ? value.toString()
                   : u"'"_qs + value.toString().replace(u"'"_qs, u"''"_qs) + u"'"_qs);
    }
    return sql;
}

} // namespace

SourceReader::SourceReader(const QSqlDatabase &db, const OutboxProfile *profile)
    : m_db(db)
    , m_profile(profile)
    , m_dialect(&SqlDialect::of(db))
    , m_source(OutboxProfile::sourceOf(profile, db))
    , m_transaction(db)
{
    if (!m_transaction.isActive())
        m_error = m_transaction.errorText();
}

bool SourceReader::has(OutboxProfile::Column column) const
{
    return isNative() || m_profile->isAvailable(column);
}

QString SourceReader::sourceUsing(const QString &index) const
{
    return isNative() && m_source == u"delivery_outbox"_qs
        ? IndexHint::source(m_db, m_source, index)
        : m_source;
}

QString SourceReader::attemptSource(const QString &oneEvent) const
{
    return isNative() ? u"delivery_attempt"_qs
                      : m_profile->attemptSource(m_dialect->engine(), oneEvent);
}

bool SourceReader::infersParkingAttempt() const
{
    return !isNative() && m_profile->attempts().infersParkingAttempt(m_dialect->engine());
}

QString SourceReader::newestOutcome(const QString &read, const QString &eventStatus) const
{
    return infersParkingAttempt() && eventStatus == QLatin1String("DEAD") ? u"DEAD"_qs : read;
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
        IndexHint::forget(m_db);
        return nullptr;
    }
    for (const auto &[name, value] : values)
        query->bindValue(name, value);
    if (m_trace)
        m_trace->append(withValues(sql, values));
    if (!query->exec()) {
        m_error = QueryError::text(*query);
        IndexHint::forget(m_db);
        return nullptr;
    }
    return query;
}

QString SourceReader::limited(const QString &select, const QString &rows) const
{
    return m_dialect->statements().limitedSql(select, rows);
}

QSqlQuery *SourceReader::prepare(const QString &sql)
{
    QSqlQuery *query = m_transaction.prepare(sql);
    if (!query)
        m_error = m_transaction.errorText();
    return query;
}
