// The health snapshot built for big outboxes, on SQLite, PostgreSQL and MySQL: the indexes that
// `outboxctl init` creates (never on payload), the snapshot's small-state statements reading
// them (EXPLAIN), only buckets crossing the wire, and DELIVERED from the catalogue estimate
// on PostgreSQL above the threshold (marked in `estimated`, close to the exact count). The
// read-only cases share one generated database per engine; a case that changes rows has its own.
#include "diagnosisquery.h"
#include "healthquery.h"
#include "outboxctlrun.h"
#include "outboxgenerator.h"
#include "sqldialect.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlRecord>
#include <map>
#include <memory>

namespace {

constexpr qint64 Now = 1700000000000;

bool isPostgres(const QSqlDatabase &db)
{
    return SqlDialect::of(db).engine() == Engine::PostgreSql;
}

bool isMySql(const QSqlDatabase &db)
{
    return SqlDialect::of(db).engine() == Engine::MySql;
}

// Index name -> its definition (on MySQL its columns), for the native tables.
QMap<QString, QString> indexes(const QSqlDatabase &db)
{
    QSqlQuery query(db);
    if (isMySql(db))
        query.exec(u"SELECT INDEX_NAME, GROUP_CONCAT(COLUMN_NAME ORDER BY SEQ_IN_INDEX)"
                   " FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE()"
                   " AND TABLE_NAME IN ('delivery_outbox', 'delivery_attempt')"
                   " GROUP BY INDEX_NAME"_qs);
    else
        query.exec(isPostgres(db)
                ? u"SELECT indexname, indexdef FROM pg_indexes WHERE tablename IN ('delivery_outbox', 'delivery_attempt')"_qs
                : u"SELECT name, COALESCE(sql, '') FROM sqlite_master WHERE type = 'index'"
                  " AND tbl_name IN ('delivery_outbox', 'delivery_attempt')"_qs);
    QMap<QString, QString> out;
    while (query.next())
        out.insert(query.value(0).toString(), query.value(1).toString());
    return out;
}

// MySQL's plan, a line per table read: "SCAN delivery_outbox" for a full scan (type ALL),
// else the table and the index it reads.
QString mySqlPlan(const QSqlDatabase &db, const QString &sql)
{
    QSqlQuery query(db);
    if (!query.exec(u"EXPLAIN "_qs + sql))
        return u"EXPLAIN failed"_qs;
    const QSqlRecord record = query.record();
    QStringList lines;
    while (query.next()) {
        const QString table = query.value(record.indexOf(u"table"_qs)).toString();
        const QString type = query.value(record.indexOf(u"type"_qs)).toString();
        const QString key = query.value(record.indexOf(u"key"_qs)).toString();
        lines << (type == u"ALL"_qs ? QString(u"SCAN "_qs + table) : QString(table + u" USING "_qs + key));
    }
    return lines.join(QLatin1Char('\n'));
}

// The plan of a statement, as one text.
QString plan(const QSqlDatabase &db, const QString &sql)
{
    if (isMySql(db))
        return mySqlPlan(db, sql);
    const QString explain = isPostgres(db) ? u"EXPLAIN "_qs : u"EXPLAIN QUERY PLAN "_qs;
    QSqlQuery query(db);
    if (!query.exec(explain + sql))
        return u"EXPLAIN failed"_qs;
    QStringList lines;
    while (query.next())
        lines << query.value(isPostgres(db) ? 0 : 3).toString();
    return lines.join(QLatin1Char('\n'));
}

bool generate(const QSqlDatabase &db, qint64 events)
{
    OutboxGenerator generator(db);
    QString error;
    const bool ok = generator.generate({events, 3, Now}, &error).has_value();
    if (!ok)
        qWarning("generate: %s", qPrintable(error));
    return ok;
}

// The 20,000 generated events of an engine that the read-only cases share: generated once
// (the longest part of each case under the sanitizers), never changed by them.
struct Generated
{
    std::unique_ptr<TestDatabase> database;
    std::unique_ptr<DbConnection> connection;
};

} // namespace

// The engine's shared database of 20,000 generated events, or skips/fails as FRESH_DATABASE.
#define GENERATED_DATABASE(var, engine)                                                            \
    QString var##Skip, var##Fail;                                                                  \
    const Generated *var = generated(engine, &var##Skip, &var##Fail);                              \
    if (!var##Fail.isEmpty())                                                                      \
        QFAIL(qPrintable(var##Fail));                                                              \
    if (!var)                                                                                      \
        QSKIP(qPrintable(var##Skip));

class TestScaleQueries : public QObject
{
    Q_OBJECT

    std::map<QString, Generated> m_generated; // by engine

    const Generated *generated(const QString &engine, QString *skip, QString *fail)
    {
        if (const auto found = m_generated.find(engine); found != m_generated.end())
            return &found->second;
        Generated made;
        made.database = TestDatabase::create(engine, skip, fail);
        if (!made.database)
            return nullptr;
        made.connection = made.database->initialise();
        if (!made.connection || !generate(made.connection->database(), 20000)) {
            *fail = u"could not generate 20,000 events on "_qs + engine;
            return nullptr;
        }
        return &m_generated.emplace(engine, std::move(made)).first->second;
    }

private slots:
    void cleanupTestCase()
    {
        for (auto &[engine, made] : m_generated)
            made.connection.reset(); // before its database is dropped
        m_generated.clear();
    }

    void initCreatesTheIndexes_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void initCreatesTheIndexes()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QCOMPARE(outboxctl({u"init"_qs, u"--db"_qs, database->url()}).exitCode, 0);
        {
            // An older schema's indexes, superseded by the covering ones.
            const auto connection = database->connect();
            QSqlQuery(connection->database())
                .exec(
                    u"CREATE INDEX delivery_outbox_dead ON delivery_outbox (created_at) WHERE status = 'DEAD'"_qs);
        }
        QCOMPARE(outboxctl({u"init"_qs, u"--db"_qs, database->url()}).exitCode, 0);
        const auto connection = database->connect();
        const QMap<QString, QString> found = indexes(connection->database());
        // MySQL has no partial indexes: DEAD and RESOLVED rows share one index led by status.
        const QString dead = engine == u"mysql"_qs ? u"delivery_outbox_state_created"_qs
                                                   : u"delivery_outbox_dead_rows"_qs;
        for (const QString &name : {u"delivery_outbox_pending"_qs, dead,
                 u"delivery_outbox_created"_qs, u"delivery_attempt_finished"_qs,
                 u"delivery_outbox_delivered"_qs, u"delivery_attempt_event"_qs})
            QVERIFY2(found.contains(name), qPrintable(name));
        QVERIFY(!found.contains(u"delivery_outbox_dead"_qs));
        QVERIFY(!found.contains(u"delivery_outbox_pending_due"_qs));
        if (engine == u"mysql"_qs) // the snapshot reads every PENDING figure from it alone
            QVERIFY2(found.value(u"delivery_outbox_pending"_qs).startsWith(u"status,"_qs)
                    && found.value(u"delivery_outbox_pending"_qs).endsWith(u",claim_token"_qs),
                qPrintable(found.value(u"delivery_outbox_pending"_qs)));
        else
            QVERIFY2(found.value(u"delivery_outbox_pending"_qs)
                         .contains(u"WHERE"_qs, Qt::CaseInsensitive),
                "the PENDING index is partial");
        for (auto it = found.cbegin(); it != found.cend(); ++it)
            QVERIFY2(!it.value().contains(u"payload"_qs), qPrintable(it.key()));
    }

    // Each statement of the diagnosis reads an index, never the whole table, and returns a
    // handful of rows; blocked_aggregate reads the unfinished-aggregate index alone.
    void diagnosisReadsIndexes_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void diagnosisReadsIndexes()
    {
        QFETCH(QString, engine);
        GENERATED_DATABASE(shared, engine);
        const QSqlDatabase db = shared->connection->database();
        QStringList trace;
        QString error;
        QVERIFY2(DiagnosisQuery::run(db, Now, &error, nullptr, {}, &trace), qPrintable(error));
        // PostgreSQL: first the transaction's planner settings (no parallel workers, no JIT).
        QCOMPARE(trace.size(), engine == u"postgresql"_qs ? 9 : 8);
        for (const QString &statement : trace) {
            const QString text = plan(db, statement);
            bool fullScan = false;
            for (const QString &line : text.split(QLatin1Char('\n'))) {
                fullScan = fullScan || line.contains(u"Seq Scan on delivery_outbox"_qs)
                    || (line.contains(u"SCAN delivery_outbox"_qs) && !line.contains(u"USING"_qs));
            }
            QVERIFY2(!fullScan, qPrintable(statement + u"\n"_qs + text));
            QSqlQuery query(db);
            QVERIFY(query.exec(statement));
            int rows = 0;
            while (query.next())
                ++rows;
            QVERIFY2(rows <= 100, qPrintable(statement));
        }
        const QStringList blocked = trace.filter(u"ROW_NUMBER()"_qs);
        QCOMPARE(blocked.size(), 1);
        const QString text = plan(db, blocked.constFirst());
        QVERIFY2(text.contains(u"delivery_outbox_unfinished_aggregate"_qs), qPrintable(text));
    }

    // Each snapshot statement over PENDING or DEAD rows reads its partial index, the throughput
    // its range index, and every one returns buckets, never rows.
    void snapshotReadsTheSmallStateIndexes_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void snapshotReadsTheSmallStateIndexes()
    {
        QFETCH(QString, engine);
        GENERATED_DATABASE(shared, engine); // analysed (and vacuumed) at the end
        const QSqlDatabase db = shared->connection->database();
        QStringList trace;
        HealthQuery::Options options;
        options.trace = &trace;
        QString error;
        QVERIFY2(HealthQuery::compute(db, Now, &error, options), qPrintable(error));
        // SQLite: the version with RESOLVED, PENDING, DEAD, the count, throughput, the latency
        // index's presence and the latency. PostgreSQL: the planner settings first (no
        // parallel workers, no JIT); PostgreSQL and MySQL: the catalogue, then maybe the exact
        // count.
        const int settings = engine == u"postgresql"_qs ? 1 : 0;
        if (engine == u"sqlite"_qs)
            QCOMPARE(trace.size(), 7);
        else
            QVERIFY2(trace.size() == settings + 7 || trace.size() == settings + 8,
                qPrintable(trace.join(u'\n')));
        // MySQL: one index for DEAD and RESOLVED rows; the RESOLVED count is a range of any
        // index led by status (InnoDB counts it in the narrowest, delivery_outbox_delivered).
        const bool mySql = engine == u"mysql"_qs;
        const QList<std::pair<QString, QString>> expected
            = {{u"status = 'RESOLVED'"_qs,
                   mySql ? u"delivery_outbox USING delivery_outbox_(state_created|delivered)"_qs
                         : u"delivery_outbox_resolved"_qs},
                {u"status = 'PENDING'"_qs, u"delivery_outbox_pending"_qs},
                {u"status = 'DEAD'"_qs,
                    mySql ? u"delivery_outbox_state_created"_qs : u"delivery_outbox_dead_rows"_qs},
                {u"FROM delivery_attempt"_qs, u"delivery_attempt_finished"_qs},
                {u"delivered_at > "_qs, u"delivery_outbox_delivered"_qs}};
        for (const auto &[statement, index] : expected) {
            const QStringList matching = trace.filter(statement);
            QCOMPARE(matching.size(), 1);
            const QString text = plan(db, matching.constFirst());
            QVERIFY2(text.contains(QRegularExpression(index)), qPrintable(text));
            if (mySql) // a full table read (type ALL)
                QVERIFY2(!text.contains(u"SCAN delivery_outbox"_qs), qPrintable(text));
        }
        for (const QString &statement : trace) {
            QSqlQuery query(db);
            QVERIFY(query.exec(statement));
            int rows = 0;
            while (query.next())
                ++rows;
            QVERIFY2(rows <= 100, qPrintable(statement));
        }
    }

    // Above the threshold PostgreSQL reads DELIVERED from the catalogue; SQLite always counts.
    void deliveredEstimateOnALargeTable_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void deliveredEstimateOnALargeTable()
    {
        QFETCH(QString, engine);
        GENERATED_DATABASE(shared, engine);
        const QSqlDatabase db = shared->connection->database();
        const qint64 exact
            = scalar(db, u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'DELIVERED'"_qs)
                  .toLongLong();
        QString error;
        const std::optional<HealthSnapshot> counted = HealthQuery::compute(db, Now, &error, {});
        QVERIFY2(counted, qPrintable(error));
        QVERIFY(counted->estimated.isEmpty()); // 20,000 rows: below the default threshold
        QCOMPARE(counted->counts.delivered, exact);

        HealthQuery::Options low;
        low.estimateAboveRows = 1000;
        const std::optional<HealthSnapshot> estimated = HealthQuery::compute(db, Now, &error, low);
        QVERIFY2(estimated, qPrintable(error));
        if (engine == QLatin1String("sqlite")) {
            QVERIFY(estimated->estimated.isEmpty());
            QCOMPARE(estimated->counts.delivered, exact);
            return;
        }
        QCOMPARE(estimated->estimated, QStringList {u"delivered"_qs});
        // PostgreSQL's ANALYZE reads the whole of a small table; InnoDB samples 20 pages, about
        // 30% off at worst as measured (docs/architecture.md).
        const qint64 tolerance = engine == u"mysql"_qs ? exact * 3 / 10 : exact / 50;
        QVERIFY2(qAbs(estimated->counts.delivered - exact) <= tolerance,
            qPrintable(QStringLiteral("%1 vs %2").arg(estimated->counts.delivered).arg(exact)));
        QCOMPARE(estimated->counts.dead, counted->counts.dead); // the small states stay exact
        QCOMPARE(estimated->counts.pending(), counted->counts.pending());

        // outboxctl check reads the threshold from the environment and lists the estimate.
        qputenv("OUTBOX_ESTIMATE_ABOVE_ROWS", "1000");
        const Run run = outboxctl({u"check"_qs, u"--db"_qs, shared->database->url(), u"--json"_qs,
            u"--now"_qs, QString::number(Now), u"--no-default-thresholds"_qs});
        qunsetenv("OUTBOX_ESTIMATE_ABOVE_ROWS");
        QCOMPARE(run.exitCode, 0);
        const QJsonObject json = QJsonDocument::fromJson(run.out.constFirst().toUtf8()).object();
        QCOMPARE(json.value(u"estimated"_qs).toArray(), QJsonArray {u"delivered"_qs});
        QCOMPARE(json.value(u"counts"_qs).toObject().value(u"delivered"_qs).toInteger(),
            estimated->counts.delivered);
    }

    // A purge or any mass DELETE leaves the table's pages (and the catalogue's density) as they
    // were until autovacuum: the DELIVERED figure must still follow the rows that are left.
    void deliveredFollowsAMassDeleteWithoutAnalyze_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void deliveredFollowsAMassDeleteWithoutAnalyze()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        const QSqlDatabase db = connection->database();
        const bool generated = generate(db, 20000);
        QVERIFY(generated);
        if (engine == QLatin1String("postgresql"))
            QVERIFY(QSqlQuery(db).exec(
                u"ALTER TABLE delivery_outbox SET (autovacuum_enabled = false)"_qs));
        {
            // Another session deletes 99% of the DELIVERED rows (their attempts first) and
            // disconnects, as a cleanup job would.
            const auto cleaner = database->connect();
            QVERIFY(cleaner);
            const QString doomed = u"SELECT event_id FROM delivery_outbox WHERE status ="
                                   " 'DELIVERED' AND event_id NOT LIKE '%00'"_qs;
            QVERIFY(QSqlQuery(cleaner->database())
                        .exec(u"DELETE FROM delivery_attempt WHERE event_id IN ("_qs + doomed
                            + u")"_qs));
            QVERIFY(QSqlQuery(cleaner->database())
                        .exec(u"DELETE FROM delivery_outbox WHERE event_id IN (SELECT event_id FROM ("_qs
                            + doomed + u") AS d)"_qs)); // MySQL: not its own table directly
        }
        const qint64 exact
            = scalar(db, u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'DELIVERED'"_qs)
                  .toLongLong();
        QVERIFY2(exact > 100 && exact < 300, qPrintable(QString::number(exact)));

        // Always estimated (threshold 0) on PostgreSQL: within a factor of 2 once the deleting
        // session's statistics are in (PostgreSQL sends them within seconds).
        HealthQuery::Options always;
        always.estimateAboveRows = 0;
        const auto delivered = [&] {
            QString error;
            const auto snapshot = HealthQuery::compute(db, Now, &error, always);
            return snapshot ? snapshot->counts.delivered : -1;
        };
        QTRY_VERIFY2_WITH_TIMEOUT(delivered() >= exact / 2 && delivered() <= exact * 2,
            qPrintable(u"%1 delivered shown for %2"_qs.arg(delivered()).arg(exact)), 20000);
        if (engine == QLatin1String("sqlite"))
            QCOMPARE(delivered(), exact); // SQLite counts

        // With the default threshold the small table is counted exactly.
        QString error;
        const auto snapshot = HealthQuery::compute(db, Now, &error, {});
        QVERIFY2(snapshot, qPrintable(error));
        QCOMPARE(snapshot->counts.delivered, exact);
        QVERIFY(snapshot->estimated.isEmpty());
    }

    // A table never analysed has no catalogue figure: PostgreSQL counts rather than guess.
    void noEstimateBeforeTheFirstAnalyze()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        const auto connection = database->initialise();
        const QSqlDatabase db = connection->database();
        QVERIFY(
            QSqlQuery(db).exec(u"ALTER TABLE delivery_outbox SET (autovacuum_enabled = false)"_qs));
        QVERIFY(QSqlQuery(db).exec(u"INSERT INTO delivery_outbox (event_id, aggregate_type, "
                                   u"aggregate_id, event_type, payload,"
                                   " status, next_attempt_at, created_at) SELECT 'E-' || n, "
                                   "'Order', 'O', 'T', '{}', 'DELIVERED', 0, 0"
                                   " FROM generate_series(1, 3000) AS n"_qs));
        HealthQuery::Options low;
        low.estimateAboveRows = 0;
        QString error;
        const std::optional<HealthSnapshot> snapshot = HealthQuery::compute(db, Now, &error, low);
        QVERIFY2(snapshot, qPrintable(error));
        QVERIFY(snapshot->estimated.isEmpty());
        QCOMPARE(snapshot->counts.delivered, 3000);
    }
};

OUTBOX_TEST_MAIN(TestScaleQueries, QCoreApplication)
#include "tst_scalequeries.moc"
