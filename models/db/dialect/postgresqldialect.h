// PostgreSQL through Qt's QPSQL driver (libpq).
#pragma once

#include "sqldialect.h"

class PostgreSqlDialect final : public SqlDialect
{
public:
    Engine engine() const override { return Engine::PostgreSql; }
    QString qtDriver() const override;
    QStringList urlSchemes() const override;
    QString keyPrefix() const override;
    QString title() const override;
    QString driverPackage() const override;
    const Capabilities &can() const override;

    bool configure(QSqlDatabase &db, const DatabaseUrl &url, const OpenOptions &options,
        QString *error) const override;
    void startSession(const QSqlDatabase &db) const override;
    void setNoticeLevel(const QSqlDatabase &db, NoticeLevel level, Scope scope) const override;

    QString beginWriteSql() const override;
    bool beginReadOnly(const QSqlDatabase &db, bool *restore, QString *error) const override;
    void endReadOnly(const QSqlDatabase &db, bool active, bool restore) const override;

    QString rowLockClause() const override;
    QString skipLockedClause() const override;
    QString idSetSelect(const QString &placeholder) const override;
    QString integerType() const override;
    QString plannerLimitsSql(Scope scope) const override;
    QString tableExistsSql(const QString &name) const override;
    QString indexExistsSql(const QString &name) const override;
    QString backendIdSql() const override;
    QString cancelSql(const QString &placeholder) const override;

    QString schemaResource() const override;
    QStringList afterSchemaStatements() const override;
    QStringList bulkLoadStatements() const override;
    QStringList simulationSessionStatements() const override;
    QList<SqlText::Reading> readings() const override;
};
