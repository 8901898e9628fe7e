// Retention on both engines: the purge removes exactly the settled events older than the
// cutoff with their attempts and replay audit, in batches smaller than the set, and leaves
// PENDING, DEAD and young rows; a dry run changes nothing; a rerun is a no-op; a read-only
// connection and an unsettled state are refused; on PostgreSQL a row another transaction holds
// is skipped instead of waited for.
#include "fixturescript.h"
#include "purger.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QJsonObject>
#include <QSqlError>
#include <QSqlRecord>

namespace {

constexpr qint64 Now = 100000000;
constexpr qint64 Hour = 3600000;

// One event (test data, no user input) with `attempts` attempt rows.
bool insertEvent(const QSqlDatabase &db, const QString &id, const QString &status, qint64 createdAt,
    std::optional<qint64> deliveredAt, int attempts)
{
    QSqlQuery insert(db);
    insert.prepare(u"INSERT INTO delivery_outbox (event_id, aggregate_type, aggregate_id,"
                   " event_type, payload, status, failures, next_attempt_at, created_at,"
                   " delivered_at) VALUES (:id, 'Order', :id2, 'T', '{}', :status, 0, 0,"
                   " :created, :delivered)"_qs);
    insert.bindValue(u":id"_qs, id);
    insert.bindValue(u":id2"_qs, id);
    insert.bindValue(u":status"_qs, status);
    insert.bindValue(u":created"_qs, createdAt);
    insert.bindValue(u":delivered"_qs,
        deliveredAt ? QVariant(*deliveredAt) : QVariant(QMetaType::fromType<qint64>()));
    if (!insert.exec()) {
        qWarning("insert %s: %s", qPrintable(id), qPrintable(insert.lastError().text()));
        return false;
    }
    for (int attempt = 1; attempt <= attempts; ++attempt) {
        QSqlQuery row(db);
        row.prepare(u"INSERT INTO delivery_attempt (event_id, attempt_no, worker, claim_token,"
                    " claimed_at, finished_at, outcome) VALUES (:id, :no, 'w', 'c', :at, :at2,"
                    " 'RETRY')"_qs);
        row.bindValue(u":id"_qs, id);
        row.bindValue(u":no"_qs, attempt);
        row.bindValue(u":at"_qs, createdAt);
        row.bindValue(u":at2"_qs, createdAt);
        if (!row.exec())
            return false;
    }
    return true;
}

bool insertReplay(const QSqlDatabase &db, const QString &id)
{
    QSqlQuery insert(db);
    insert.prepare(
        u"INSERT INTO replay_log (event_id, replayed_at, operator, reason,"
        " reset_failures, failures_before) VALUES (:id, 1, 'alice', 'fixed', FALSE, 3)"_qs);
    insert.bindValue(u":id"_qs, id);
    return insert.exec();
}

// An edit's revision of event `id` (edit and replay, schema version 3).
bool insertRevision(const QSqlDatabase &db, const QString &id)
{
    QSqlQuery insert(db);
    insert.prepare(u"INSERT INTO payload_revision (event_id, revision_no, payload, new_payload,"
                   " operator, reason, revealed, created_at)"
                   " VALUES (:id, 1, '{}', '{\"a\":1}', 'alice', 'fixed', FALSE, 1)"_qs);
    insert.bindValue(u":id"_qs, id);
    return insert.exec();
}

// Five old DELIVERED events (OLD-1..5, three with a replay in their past, OLD-1 edited), one
// delivered recently though created long ago (YOUNG-1), one created and delivered recently
// (YOUNG-2), and old PENDING and DEAD events (KEEP-P, KEEP-D): each with two attempts.
bool populate(const QSqlDatabase &db)
{
    for (int i = 1; i <= 5; ++i) {
        const QString id = u"OLD-%1"_qs.arg(i);
        if (!insertEvent(db, id, u"DELIVERED"_qs, Now - 10 * Hour + i, Now - 9 * Hour + i, 2))
            return false;
        if (i <= 3 && !insertReplay(db, id))
            return false;
    }
    if (!insertRevision(db, u"OLD-1"_qs))
        return false;
    return insertEvent(db, u"YOUNG-1"_qs, u"DELIVERED"_qs, Now - 10 * Hour, Now - Hour / 2, 2)
        && insertEvent(db, u"YOUNG-2"_qs, u"DELIVERED"_qs, Now - Hour / 4, Now - Hour / 5, 2)
        && insertEvent(db, u"KEEP-P"_qs, u"PENDING"_qs, Now - 20 * Hour, std::nullopt, 2)
        && insertEvent(db, u"KEEP-D"_qs, u"DEAD"_qs, Now - 20 * Hour, std::nullopt, 2)
        && insertReplay(db, u"KEEP-D"_qs) && insertRevision(db, u"KEEP-D"_qs);
}

QStringList column(const QSqlDatabase &db, const QString &sql)
{
    QStringList out;
    QSqlQuery query(db);
    if (!query.exec(sql))
        return {u"failed: "_qs + query.lastError().text()};
    while (query.next()) {
        QStringList fields;
        for (int i = 0; i < query.record().count(); ++i)
            fields << query.value(i).toString();
        out << fields.join(u'|');
    }
    return out;
}

// Every row of the three tables a purge touches, as text.
QStringList everything(const QSqlDatabase &db)
{
    return column(db, u"SELECT * FROM delivery_outbox ORDER BY event_id"_qs)
        + column(db, u"SELECT * FROM delivery_attempt ORDER BY attempt_id"_qs)
        + column(db, u"SELECT * FROM replay_log ORDER BY replay_id"_qs);
}

PurgeRequest deliveredOlderThan(qint64 ageMs, int batch = 1000)
{
    PurgeRequest request;
    request.rules = {{u"DELIVERED"_qs, ageMs}};
    request.now = Now;
    request.batch = batch;
    return request;
}

} // namespace

class TestPurger : public QObject
{
    Q_OBJECT

private slots:
    void purgeRemovesOldDeliveredEventsAndTheirChildren_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<int>("batch");
        for (const char *engine : {"sqlite", "postgresql"}) {
            for (const int batch : {1, 2, 5, 1000})
                QTest::addRow("%s, batch %d", engine, batch)
                    << QString::fromLatin1(engine) << batch;
        }
    }
    void purgeRemovesOldDeliveredEventsAndTheirChildren()
    {
        QFETCH(QString, engine);
        QFETCH(int, batch);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(populate(db));

        Purger purger(db);
        QList<qint64> progress;
        purger.setProgress([&progress](const PurgeResult &result) {
            progress << result.eventsByStatus.value(u"DELIVERED"_qs);
        });
        const PurgeResult result = purger.purge(deliveredOlderThan(Hour, batch));
        QCOMPARE(result.error, QString());
        QCOMPARE(result.eventsByStatus, (QMap<QString, qint64> {{u"DELIVERED"_qs, 5}}));
        const QMap<QString, qint64> rows
            = {{u"delivery_outbox"_qs, 5}, {u"delivery_attempt"_qs, 10}, {u"replay_log"_qs, 3},
                {u"resolve_log"_qs, 0}, {u"reopen_log"_qs, 0}, {u"payload_revision"_qs, 1}};
        QCOMPARE(result.rowsByTable, rows);
        const int batches = (5 + batch - 1) / batch;
        QCOMPARE(result.batches, batches);
        QCOMPARE(progress.size(), batches);
        QCOMPARE(progress.constLast(), 5);

        QCOMPARE(column(db, u"SELECT event_id, status FROM delivery_outbox ORDER BY event_id"_qs),
            QStringList({u"KEEP-D|DEAD"_qs, u"KEEP-P|PENDING"_qs, u"YOUNG-1|DELIVERED"_qs,
                u"YOUNG-2|DELIVERED"_qs}));
        QCOMPARE(column(db,
                     u"SELECT event_id, COUNT(*) FROM delivery_attempt GROUP BY event_id"
                     " ORDER BY event_id"_qs),
            QStringList({u"KEEP-D|2"_qs, u"KEEP-P|2"_qs, u"YOUNG-1|2"_qs, u"YOUNG-2|2"_qs}));
        QCOMPARE(column(db, u"SELECT event_id FROM replay_log"_qs), QStringList {u"KEEP-D"_qs});
        // The purged event's revision went with it; the kept event keeps its own.
        QCOMPARE(
            column(db, u"SELECT event_id FROM payload_revision"_qs), QStringList {u"KEEP-D"_qs});
    }

    void dryRunCountsAndChangesNothing_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void dryRunCountsAndChangesNothing()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(populate(db));
        const QStringList before = everything(db);

        PurgeRequest request = deliveredOlderThan(Hour);
        request.dryRun = true;
        const PurgeResult counted = Purger(db).purge(request);
        QCOMPARE(counted.error, QString());
        QCOMPARE(counted.batches, 0);
        QCOMPARE(everything(db), before);

        // The plan: counted as the dry run counts, by state and cutoff, executed as planned.
        const PurgePlan plan = Purger(db).plan(deliveredOlderThan(Hour), true);
        QVERIFY(plan.counted);
        QCOMPARE(plan.counts.eventsByStatus, counted.eventsByStatus);
        QCOMPARE(everything(db), before);
        const QJsonObject json = plan.toJson();
        QCOMPARE(json.value(u"action"_qs).toString(), u"purge"_qs);
        QCOMPARE(json.value(u"count"_qs).toInteger(), plan.count());
        QVERIFY(plan.count() > 0);
        QCOMPARE(
            json[u"states"_qs][u"DELIVERED"_qs][u"cutoff"_qs].toInteger(), plan.request.now - Hour);
        QVERIFY(json.value(u"refusal"_qs).isNull());

        const PurgeResult purged = Purger(db).execute(plan);
        QCOMPARE(purged.error, QString());
        QCOMPARE(counted.eventsByStatus, purged.eventsByStatus);
        QCOMPARE(counted.rowsByTable, purged.rowsByTable);
        PurgeRequest never = deliveredOlderThan(Hour);
        never.rules = {{u"DEAD"_qs, Hour}};
        const PurgePlan refused = Purger(db).plan(never, true);
        QVERIFY(refused.refusal.contains(u"never DEAD"_qs));
        QCOMPARE(Purger(db).execute(refused).error, refused.refusal);
    }

    void rerunIsANoOp_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void rerunIsANoOp()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(populate(db));
        QCOMPARE(Purger(db).purge(deliveredOlderThan(Hour, 2)).error, QString());
        const QStringList after = everything(db);

        const PurgeResult again = Purger(db).purge(deliveredOlderThan(Hour, 2));
        QCOMPARE(again.error, QString());
        QCOMPARE(again.eventsByStatus.value(u"DELIVERED"_qs), 0);
        QCOMPARE(again.batches, 0);
        QCOMPARE(everything(db), after);
    }

    void readOnlyConnectionIsRefused_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void readOnlyConnectionIsRefused()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto writer = database->initialise();
        QVERIFY(writer);
        QVERIFY(populate(writer->database()));
        const QStringList before = everything(writer->database());

        QString error;
        OpenOptions options;
        options.readOnly = true;
        const auto reader
            = DbConnection::open(DatabaseUrl::parse(database->url(), &error), options, &error);
        QVERIFY2(reader, qPrintable(error));
        const PurgeResult result = Purger(reader->database()).purge(deliveredOlderThan(Hour));
        QVERIFY2(result.error.contains(u"read"_qs, Qt::CaseInsensitive), qPrintable(result.error));
        QCOMPARE(result.eventsByStatus.value(u"DELIVERED"_qs), 0);
        QCOMPARE(everything(writer->database()), before);
    }

    void unsettledStatesAreRefused_data()
    {
        QTest::addColumn<QString>("status");
        QTest::addColumn<qint64>("age");
        QTest::addColumn<int>("batch");
        QTest::addRow("PENDING") << u"PENDING"_qs << Hour << 10;
        QTest::addRow("DEAD") << u"DEAD"_qs << Hour << 10;
        QTest::addRow("lower case") << u"delivered"_qs << Hour << 10;
        QTest::addRow("negative age") << u"DELIVERED"_qs << -1LL << 10;
        QTest::addRow("batch 0") << u"DELIVERED"_qs << Hour << 0;
    }
    void unsettledStatesAreRefused()
    {
        QFETCH(QString, status);
        QFETCH(qint64, age);
        QFETCH(int, batch);
        FRESH_DATABASE(database, u"sqlite"_qs);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QVERIFY(populate(connection->database()));
        const QStringList before = everything(connection->database());
        PurgeRequest request = deliveredOlderThan(age, batch);
        request.rules.first().status = status;
        const PurgeResult result = Purger(connection->database()).purge(request);
        QVERIFY(!result.error.isEmpty());
        QCOMPARE(everything(connection->database()), before);
    }

    // Needs the RESOLVED state (schema version 2); skipped where the CHECK refuses it.
    void resolvedRowsGoOnlyWhenAsked_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void resolvedRowsGoOnlyWhenAsked()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(populate(db));
        if (!insertEvent(db, u"RES-OLD"_qs, u"RESOLVED"_qs, Now - 50 * Hour, std::nullopt, 2))
            QSKIP("this schema has no RESOLVED state yet");
        QVERIFY(insertEvent(db, u"RES-YOUNG"_qs, u"RESOLVED"_qs, Now - Hour, std::nullopt, 1));

        PurgeResult result = Purger(db).purge(deliveredOlderThan(Hour));
        QCOMPARE(result.error, QString());
        QCOMPARE(column(db, u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'RESOLVED'"_qs),
            QStringList {u"2"_qs});

        PurgeRequest request = deliveredOlderThan(Hour);
        request.rules.append({u"RESOLVED"_qs, 2 * Hour});
        result = Purger(db).purge(request);
        QCOMPARE(result.error, QString());
        QCOMPARE(result.eventsByStatus.value(u"RESOLVED"_qs), 1);
        QCOMPARE(column(db, u"SELECT event_id FROM delivery_outbox WHERE status = 'RESOLVED'"_qs),
            QStringList {u"RES-YOUNG"_qs});
        QCOMPARE(column(db, u"SELECT COUNT(*) FROM delivery_attempt WHERE event_id = 'RES-OLD'"_qs),
            QStringList {u"0"_qs});
    }

    // The relay (or anyone) holding a row: the purge goes past it at once, and the next run
    // takes it.
    void lockedRowIsSkippedNotWaitedFor()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QVERIFY(populate(connection->database()));
        const auto holder = database->connect();
        QVERIFY(holder);
        QVERIFY(exec(holder->database(), u"BEGIN"_qs));
        QVERIFY(exec(holder->database(),
            u"SELECT * FROM delivery_outbox WHERE event_id = 'OLD-2' FOR UPDATE"_qs));
        QVERIFY(exec(connection->database(), u"SET lock_timeout = '5s'"_qs));

        PurgeResult result = Purger(connection->database()).purge(deliveredOlderThan(Hour, 2));
        QCOMPARE(result.error, QString());
        QCOMPARE(result.eventsByStatus.value(u"DELIVERED"_qs), 4);
        QVERIFY(exec(holder->database(), u"COMMIT"_qs));

        result = Purger(connection->database()).purge(deliveredOlderThan(Hour, 2));
        QCOMPARE(result.error, QString());
        QCOMPARE(result.eventsByStatus.value(u"DELIVERED"_qs), 1);
        QCOMPARE(column(connection->database(),
                     u"SELECT COUNT(*) FROM delivery_outbox WHERE event_id LIKE 'OLD-%'"_qs),
            QStringList {u"0"_qs});
    }
};

OUTBOX_TEST_MAIN(TestPurger, QCoreApplication)
#include "tst_purger.moc"
