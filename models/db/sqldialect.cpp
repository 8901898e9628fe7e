#include "sqldialect.h"

#include <QSqlQuery>

SqlDialect::SqlDialect(Traits traits)
    : m_traits(std::move(traits))
{ }

void SqlDialect::exec(const QSqlDatabase &db, const QString &sql)
{
    QSqlQuery(db).exec(sql);
}

QString SqlDialect::literal(const QString &name)
{
    QString quoted = name;
    quoted.replace(QLatin1Char('\''), QStringLiteral("''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

bool SqlDialect::startSession(const QSqlDatabase &, QString *) const
{
    return true;
}

void SqlDialect::setNoticeLevel(const QSqlDatabase &, NoticeLevel, Scope) const { }

// A read has nothing to commit.
void SqlDialect::endReadOnly(const QSqlDatabase &db, bool active, bool) const
{
    if (active)
        exec(db, QStringLiteral("ROLLBACK"));
}

QString SqlDialect::likeEscapeClause() const
{
    return QStringLiteral(" ESCAPE '\\'");
}

QString SqlDialect::plannerLimitsSql(Scope) const
{
    return {};
}

QString SqlDialect::cancelSql(const QString &) const
{
    return {};
}

QString SqlDialect::collationProbeSql() const
{
    return QStringLiteral("SELECT 'B' < 'a' AND 'E-5' < 'E.' AND 'Z9' < 'a0'");
}

// Both engines write it as PostgreSQL does (SQLite took its syntax in 3.24).
QString SqlDialect::ignoreConflictClause(const QString &key) const
{
    return QStringLiteral(" ON CONFLICT (%1) DO NOTHING").arg(key);
}

QString SqlDialect::upsertClause(const QString &key, const QStringList &columns) const
{
    QStringList assignments;
    for (const QString &column : columns)
        assignments << column + QStringLiteral(" = excluded.") + column;
    return QStringLiteral(" ON CONFLICT (%1) DO UPDATE SET %2")
        .arg(key, assignments.join(QStringLiteral(", ")));
}

QString SqlDialect::onUpdateTimestampColumnsSql() const
{
    return {};
}

QString SqlDialect::catalogueRowEstimateSql(const QString &) const
{
    return {};
}

QString SqlDialect::foreignKeysOffForRebuildSql() const
{
    return {};
}

QString SqlDialect::foreignKeysOnAfterRebuildSql() const
{
    return {};
}

QString SqlDialect::foreignKeyCheckSql() const
{
    return {};
}

QString SqlDialect::tableDefinitionSql(const QString &) const
{
    return {};
}

QString SqlDialect::tableDependentsSql(const QString &) const
{
    return {};
}

QString SqlDialect::checkConstraintsSql(const QString &) const
{
    return {};
}
