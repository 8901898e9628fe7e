// OutboxProfile's action statements (`replay`, `resolve`, `reopen`): each one fenced UPDATE per
// engine, prepared by the server as one statement (SqlDialect::prepareOne), bound with
// :event_id and :now, never run by a probe (docs/profiles.md, "Actions through a profile").
#include "outboxprofile.h"

#include "failurecause.h"
#include "readonlytransaction.h"
#include "sqldialect.h"
#include "sqltext.h"

#include <QSqlError>
#include <QSqlQuery>

QString OutboxProfile::actionName(Action action)
{
    switch (action) {
    case Action::Replay:
        return QStringLiteral("replay");
    case Action::Resolve:
        return QStringLiteral("resolve");
    case Action::Reopen:
        return QStringLiteral("reopen");
    }
    return {};
}

std::optional<OutboxProfile::Action> OutboxProfile::actionFromName(const QString &name)
{
    for (const Action action : {Action::Replay, Action::Resolve, Action::Reopen}) {
        if (actionName(action) == name)
            return action;
    }
    return std::nullopt;
}

bool OutboxProfile::hasStatement(Action action) const
{
    if (action == Action::Replay)
        return m_replayKind == ReplayKind::Statement;
    const PerEngine &sql = action == Action::Resolve ? m_resolve : m_reopen;
    return std::any_of(sql.cbegin(), sql.cend(), [](const QString &s) { return !s.isEmpty(); });
}

std::optional<QString> OutboxProfile::statementSql(Action action, Engine engine) const
{
    if (!hasStatement(action) || !supports(engine))
        return std::nullopt;
    const PerEngine &sql = action == Action::Replay ? m_replay
        : action == Action::Resolve                 ? m_resolve
                                                    : m_reopen;
    return sql.at(int(engine));
}

QString OutboxProfile::statementFailure(Action action, Engine engine, const QString &words) const
{
    const QString field = actionName(action);
    return QStringLiteral("%1: field %2 (%3:%4): %5")
        .arg(m_name, field, m_origin)
        .arg(lineOfField(field, engine))
        .arg(words);
}

// Each statement prepared in the read-only transaction, never run. Where the transaction
// refuses even to prepare a write (MariaDB, error 1792), the action goes to *outside.
QString OutboxProfile::probeStatements(
    ReadOnlyTransaction &transaction, Engine engine, QList<Action> *outside) const
{
    for (const Action action : {Action::Replay, Action::Resolve, Action::Reopen}) {
        const std::optional<QString> sql = statementSql(action, engine);
        if (!sql || transaction.prepare(*sql))
            continue;
        if (!transaction.lastError().isValid()
            || !FailureCause::isReadOnlyRefusal(transaction.lastError().text()))
            return statementFailure(action, engine, wordsOf(transaction));
        *outside << action;
    }
    return {};
}

// A statement, one statement by SqlText, prepared just after the read-only transaction ended:
// still never run (MySQL's server-side PREPARE takes one statement only), prepared in a
// transaction that may write (a read-only session refuses it outside one too), rolled back.
QString OutboxProfile::probeOutside(const QSqlDatabase &db, Engine engine, Action action) const
{
    const QString sql = statementSql(action, engine).value_or(QString());
    if (SqlText::hasSeveralStatements(sql, engine)) {
        return statementFailure(action, engine,
            QStringLiteral("refused to prepare a text holding more than one statement"));
    }
    QSqlQuery begin(db);
    if (!begin.exec(SqlDialect::of(db).beginReadWriteSql()))
        return statementFailure(action, engine, databaseWords(begin.lastError()));
    QString words;
    {
        QSqlQuery query(db);
        QSqlError refused;
        if (!SqlDialect::of(db).prepareOne(db, query, sql, &refused))
            words = databaseWords(refused);
    }
    QSqlQuery(db).exec(QStringLiteral("ROLLBACK"));
    return words.isEmpty() ? QString() : statementFailure(action, engine, words);
}

std::optional<int> OutboxProfile::run(
    Action action, const QSqlDatabase &db, const QString &eventId, qint64 now, QString *error) const
{
    const Engine engine = engineOf(db);
    const QString verb = actionName(action);
    if (!supports(engine)) {
        *error = wrongEngine(engine);
        return std::nullopt;
    }
    const std::optional<QString> sql = statementSql(action, engine);
    if (!sql) {
        *error = action != Action::Replay
            ? QStringLiteral("%1: the profile has no %2 statement").arg(m_name, verb)
            : m_replayKind == ReplayKind::Native
            ? QStringLiteral("%1: replay goes through Outbox Health's replay (with a replay_log"
                             " row)")
                  .arg(m_name)
            : QStringLiteral("%1: replay is not possible from the database: %2")
                  .arg(m_name, m_replayUnavailable);
        return std::nullopt;
    }
    if (SqlText::hasSeveralStatements(*sql, engine)) {
        *error = QStringLiteral("%1: %2: refused to prepare a text holding more than one"
                                " statement")
                     .arg(m_name, verb);
        return std::nullopt;
    }
    QSqlQuery query(db);
    QSqlError refused;
    if (!SqlDialect::of(db).prepareOne(db, query, *sql, &refused)) {
        *error = QStringLiteral("%1: %2: %3").arg(m_name, verb, databaseWords(refused));
        return std::nullopt;
    }
    query.bindValue(QStringLiteral(":event_id"), eventId);
    if (usesNow(*sql))
        query.bindValue(QStringLiteral(":now"), m_timeZone.toWallClock(now));
    if (!query.exec()) {
        *error = QStringLiteral("%1: %2: %3").arg(m_name, verb, databaseWords(query.lastError()));
        return std::nullopt;
    }
    return query.numRowsAffected();
}
