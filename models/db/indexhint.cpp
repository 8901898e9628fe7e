#include "indexhint.h"

#include "sqldialect.h"

#include <QHash>
#include <QMutex>
#include <QSqlQuery>

namespace {

QMutex mutex;
QHash<QString, bool> known; // "connection\ndatabase\nindex" -> the table has the index

QString keyOf(const QSqlDatabase &db, const QString &index)
{
    return db.connectionName() + u'\n' + db.databaseName() + u'\n' + index;
}

bool hasIndex(const QSqlDatabase &db, const QString &index)
{
    const QString key = keyOf(db, index);
    {
        QMutexLocker lock(&mutex);
        if (const auto found = known.constFind(key); found != known.cend())
            return *found;
    }
    QSqlQuery query(db);
    query.setForwardOnly(true);
    const bool present = query.exec(SqlDialect::of(db).indexExistsSql(index)) && query.next()
        && query.value(0).toLongLong() > 0;
    QMutexLocker lock(&mutex);
    known.insert(key, present);
    return present;
}

} // namespace

namespace IndexHint {

QString source(const QSqlDatabase &db, const QString &table, const QString &index)
{
    const QString hint = SqlDialect::of(db).indexHint(index);
    return !hint.isEmpty() && hasIndex(db, index) ? table + hint : table;
}

void forget(const QSqlDatabase &db)
{
    const QString prefix = keyOf(db, {});
    QMutexLocker lock(&mutex);
    known.removeIf([&prefix](const auto &entry) { return entry.key().startsWith(prefix); });
}

} // namespace IndexHint
