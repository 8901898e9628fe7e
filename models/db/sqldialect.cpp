#include "sqldialect.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QSqlDriver>
#include <QSqlError>
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

QString SqlDialect::jsonText(const QJsonValue &value)
{
    const QJsonDocument document
        = value.isObject() ? QJsonDocument(value.toObject()) : QJsonDocument(value.toArray());
    return QString::fromUtf8(document.toJson(QJsonDocument::Compact));
}

bool SqlDialect::checkOneStatement(const QSqlDatabase &db, const QString &, QSqlError *error) const
{
    if (db.driver() && db.driver()->hasFeature(QSqlDriver::PreparedQueries))
        return true;
    *error = QSqlError(QStringLiteral("cannot check that the statement is one"),
        QStringLiteral("the database driver does not prepare statements"),
        QSqlError::StatementError);
    return false;
}

QString SqlDialect::driverText(const QString &sql) const
{
    return sql;
}

bool SqlDialect::prepareOne(
    const QSqlDatabase &db, QSqlQuery &query, const QString &sql, QSqlError *error) const
{
    if (!checkOneStatement(db, sql, error))
        return false;
    if (query.prepare(sql))
        return true;
    *error = query.lastError();
    return false;
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

QString SqlDialect::indexColumnsSql(const QString &) const
{
    return {};
}

QString SqlDialect::indexHint(const QString &) const
{
    return {};
}

QString SqlDialect::groupingKey(const QStringList &columns) const
{
    return columns.join(QStringLiteral(", "));
}

QString SqlDialect::cancelSql(const QString &) const
{
    return {};
}

bool SqlDialect::wasCancelled(const QSqlError &) const
{
    return false;
}

QString SqlDialect::collationProbeSql() const
{
    return QStringLiteral("SELECT 'B' < 'a' AND 'E-5' < 'E.' AND 'Z9' < 'a0'");
}

// MAX() of no row is a NULL of the column's collation, and COALESCE gives each literal that
// collation: the comparisons are the column's.
QString SqlDialect::columnCollationProbeSql(const QString &column, const QString &source) const
{
    // clang-format off
    return QStringLiteral(
        "SELECT COALESCE(MAX(v), 'B') < COALESCE(MAX(v), 'a')"
        " AND COALESCE(MAX(v), 'E-5') < COALESCE(MAX(v), 'E.')"
        " AND COALESCE(MAX(v), 'Z9') < COALESCE(MAX(v), 'a0')"
        " FROM (SELECT %1 AS v FROM %2 WHERE 1 = 0) AS probe").arg(column, source);
    // clang-format on
}

QString SqlDialect::codePointOrder(const QString &expression) const
{
    return expression;
}

QString SqlDialect::rowComparison(
    const QString &a, const QString &b, const QString &op, const QString &x, const QString &y) const
{
    return QStringLiteral("(%1, %2) %3 (%4, %5)").arg(a, b, op, x, y);
}

QString SqlDialect::onUpdateTimestampColumnsSql() const
{
    return {};
}

QString SqlDialect::roleName(const QSqlDatabase &) const
{
    return {};
}

QString SqlDialect::catalogueRowEstimateSql(const QString &) const
{
    return {};
}

QString SqlDialect::replicationSlotSql() const
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
