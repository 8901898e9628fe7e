#include "eventlookup.h"

#include "sourcereader.h"

#include <QSqlError>
#include <QSqlQuery>

std::optional<QStringList> EventLookup::unknown(
    const QSqlDatabase &db, const OutboxProfile *profile, const QStringList &ids, QString *error)
{
    QStringList missing;
    if (ids.isEmpty())
        return missing;
    SourceReader reader(db, profile);
    QSqlQuery *query
        = reader.prepare(u"SELECT 1 FROM "_qs + reader.source() + u" WHERE event_id = :id"_qs);
    if (!query) {
        *error = reader.errorText();
        return std::nullopt;
    }
    for (const QString &id : ids) {
        if (missing.contains(id))
            continue;
        query->bindValue(u":id"_qs, id);
        if (!query->exec()) {
            *error = query->lastError().text().simplified();
            return std::nullopt;
        }
        if (!query->next())
            missing << id;
        query->finish();
    }
    return missing;
}
