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

void SqlDialect::startSession(const QSqlDatabase &) const { }

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
