// The event table's reads off the GUI thread, on every engine: a superseded search is dropped
// (skipped, and on PostgreSQL and MySQL cancelled on the server, nothing left running, the
// cancel sent again while it finds the backend idle), a read longer than the statement timeout
// says so in plain words and keeps the rows, an exact ID and an ID prefix are found by a
// primary-key range (EXPLAIN), an ID prefix matches case exactly on a case-insensitive MySQL
// column, the match count is exact or "more than 10,000", an empty result says "No
// events match" over the table, and the dashboard's --search, --state and --sort open on that
// view.
#include "enginestatements.h"
#include "eventlistmodel.h"
#include "eventpagequery.h"
#include "eventquerycanceller.h"
#include "eventquerystate.h"
#include "eventqueryworker.h"
#include "eventtablestatus.h"
#include "eventview.h"
#include "eventwait.h"
#include "filterbar.h"
#include "mainwindow.h"
#include "outboxgenerator.h"
#include "queryerror.h"
#include "sqldialect.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QElapsedTimer>
#include <QLabel>
#include <QRegularExpression>
#include <QSettings>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTableView>
#include <QTimer>

namespace {

constexpr qint64 Now = 1700000000000;

QString gen(int n)
{
    return QStringLiteral("GEN-%1").arg(n, 10, 10, QLatin1Char('0'));
}

} // namespace

class TestEventQueries : public QObject
{
    Q_OBJECT

    std::unique_ptr<TestDatabase> m_database;
    std::unique_ptr<DbConnection> m_connection;

    bool populate(const QString &engine, qint64 events, QString *skip)
    {
        QString fail;
        m_database = TestDatabase::create(engine, skip, &fail);
        if (!m_database) {
            if (!fail.isEmpty())
                *skip = fail;
            return false;
        }
        m_connection = m_database->initialise();
        QString error;
        if (!m_connection)
            return false;
        if (OutboxGenerator(m_connection->database()).generate({events, 5, Now}, &error))
            return true;
        *skip = error;
        return false;
    }

    // Makes the table `copies` + 1 times as large on the server, in one statement: each row
    // copied `copies` times, its ID prefixed "R<n>-" (unique, never starting with "GEN-"),
    // from a plain copy of the table (MariaDB would stage a table read into itself in a
    // temporary file), then analysed as after a generation. As many rows for a search to read
    // as generating them all, for a fraction of the time (MySQL's and SQLite's rows are made
    // in the client, slow under the sanitizers).
    bool copyRows(const QString &engine, int copies, QString *error)
    {
        const QSqlDatabase db = m_connection->database();
        const QString columns = u"aggregate_type, aggregate_id, event_type, payload, status,"
                                " failures, next_attempt_at, claim_token, lease_until, created_at,"
                                " delivered_at, last_error_category, last_error"_qs;
        QStringList rounds;
        for (int n = 1; n <= copies; ++n)
            rounds << u"(%1)"_qs.arg(n);
        const QString id = engine == u"mysql"_qs ? u"CONCAT('R', n, '-', event_id)"_qs
                                                 : u"'R' || n || '-' || event_id"_qs;
        QStringList statements = {u"CREATE TABLE copy_round (n INTEGER NOT NULL)"_qs,
            u"INSERT INTO copy_round (n) VALUES "_qs + rounds.join(u", "_qs),
            u"CREATE TABLE copy_source AS SELECT * FROM delivery_outbox"_qs,
            u"INSERT INTO delivery_outbox (event_id, %1) SELECT %2, %1"
            " FROM copy_source CROSS JOIN copy_round"_qs.arg(columns, id),
            u"DROP TABLE copy_source"_qs, u"DROP TABLE copy_round"_qs};
        statements << m_connection->dialect().statements().analyseSql(db, {u"delivery_outbox"_qs});
        for (const QString &sql : statements) {
            QSqlQuery query(db);
            if (!query.exec(sql)) {
                *error = sql.left(60) + u": "_qs + QueryError::text(query);
                return false;
            }
        }
        return true;
    }

    static EventFilter contains(const QString &text)
    {
        EventFilter filter;
        filter.searchMode = EventFilter::SearchMode::Contains;
        filter.search = text;
        return filter;
    }

    static EventFilter prefix(const QString &text)
    {
        EventFilter filter;
        filter.search = text;
        return filter;
    }

private slots:
    void cleanup()
    {
        m_connection.reset();
        m_database.reset();
    }

    void idSearchAndCounts_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void idSearchAndCounts()
    {
        QFETCH(QString, engine);
        QString skip;
        if (!populate(engine, 10500, &skip))
            QSKIP(qPrintable(skip));
        EventListModel model;
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setNow(Now);
        openEvents(model, *m_database);
        QVERIFY(settled(model));
        QCOMPARE(model.rowCount(), EventListModel::PageSize);
        QCOMPARE(model.matchCountText(), u"more than 10,000 events match"_qs);

        model.setFilter(prefix(gen(42))); // an exact ID
        QVERIFY(settled(model));
        QCOMPARE(allIds(model), QStringList {gen(42)});
        QCOMPARE(model.matchCountText(), u"1 event matches"_qs);

        model.setFilter(prefix(gen(42).chopped(1))); // GEN-0000000040 ... 49
        QVERIFY(settled(model));
        QCOMPARE(allIds(model).size(), 10);
        QCOMPARE(model.matchCountText(), u"10 events match"_qs);

        model.setFilter(prefix(u"GEN-00000"_qs)); // every row: the count is a bound
        QVERIFY(settled(model));
        QCOMPARE(model.matchCountText(), u"more than 10,000 events match"_qs);

        EventFilter dead;
        dead.state = EventFilter::State::Dead;
        model.setFilter(dead);
        QVERIFY(settled(model));
        const qint64 deadRows = scalar(m_connection->database(),
            u"SELECT count(*) FROM delivery_outbox WHERE status = 'DEAD'"_qs)
                                    .toLongLong();
        QVERIFY(deadRows > 0 && deadRows <= 10000);
        QCOMPARE(model.matchCount(), deadRows);
        QCOMPARE(model.matchCountText(),
            u"%1 events match"_qs.arg(QLocale(QLocale::English).toString(deadRows)));
    }

    // The primary key answers an ID prefix by a range, not a scan.
    void idPrefixIsAnIndexRange_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addRow("postgresql") << u"postgresql"_qs;
        QTest::addRow("mysql") << u"mysql"_qs;
    }
    void idPrefixIsAnIndexRange()
    {
        QFETCH(QString, engine);
        QString skip;
        // 20,000 rows (MySQL) or 200,000: a 32nd generated, copied 31 times on the server.
        if (!populate(engine, engine == u"mysql"_qs ? 625 : 6250, &skip))
            QSKIP(qPrintable(skip));
        QString error;
        QVERIFY2(copyRows(engine, 31, &error), qPrintable(error));
        QCOMPARE(scalar(m_connection->database(), u"SELECT count(*) FROM delivery_outbox"_qs)
                     .toLongLong(),
            engine == u"mysql"_qs ? 20000 : 200000);
        // EXPLAIN cannot be prepared: the bounds go in as literals (fixed test values).
        const EventFilter filter = prefix(gen(123).chopped(1)); // 10 rows: GEN-0000000120 ... 129
        QString where = filter.whereClause(m_connection->dialect());
        where.replace(u":f_id_from"_qs, u"'%1'"_qs.arg(filter.search))
            .replace(u":f_id_to"_qs, u"'%1'"_qs.arg(EventFilter::prefixUpperBound(filter.search)));
        QSqlQuery query(m_connection->database());
        QVERIFY2(query.exec(u"EXPLAIN SELECT event_id FROM delivery_outbox WHERE "_qs + where
                     + u" ORDER BY created_at DESC, event_id DESC LIMIT 200"_qs),
            qPrintable(query.lastError().text()));
        QString plan;
        while (query.next()) {
            for (int column = 0; column < query.record().count(); ++column)
                plan += query.record().fieldName(column) + u'=' + query.value(column).toString()
                    + u' ';
            plan += u'\n';
        }
        if (engine == u"mysql"_qs) { // one row: the access type and the key it uses
            QVERIFY2(plan.contains(u"type=range "_qs), qPrintable(plan));
            QVERIFY2(plan.contains(u"key=PRIMARY "_qs), qPrintable(plan));
            return;
        }
        QVERIFY2(plan.contains(u"delivery_outbox_pkey"_qs), qPrintable(plan));
        QVERIFY2(plan.contains(u"Index Cond: ((event_id >= "_qs), qPrintable(plan));
        QVERIFY2(!plan.contains(u"Seq Scan"_qs), qPrintable(plan));
    }

    // A page deep in the table reads its own rows, not every row before it: MariaDB reads an
    // index from its start for a row comparison, so the keyset start is written out.
    void aPageDeepInTheTableReadsOnlyItsRows()
    {
        QString skip;
        if (!populate(u"mysql"_qs, 20000, &skip))
            QSKIP(qPrintable(skip));
        const QSqlDatabase db = m_connection->database();
        QSqlQuery anchor(db);
        QVERIFY(anchor.exec(u"SELECT created_at, event_id FROM delivery_outbox"
                            " ORDER BY created_at DESC, event_id DESC LIMIT 1 OFFSET 10000"_qs)
            && anchor.next());
        EventPageRequest request;
        request.sortExpression = u"created_at"_qs;
        request.ascending = false;
        request.anchor = EventPageRequest::Anchor::After;
        request.anchorKey = anchor.value(0);
        request.anchorId = anchor.value(1).toString();
        request.now = Now;
        const auto readRows = [&db] {
            qint64 rows = 0;
            QSqlQuery status(db);
            // Index reads only: SHOW STATUS scans a temporary table of its own.
            status.exec(u"SHOW SESSION STATUS WHERE Variable_name IN ('Handler_read_first',"
                        " 'Handler_read_key', 'Handler_read_last', 'Handler_read_next',"
                        " 'Handler_read_prev')"_qs);
            while (status.next())
                rows += status.value(1).toLongLong();
            return rows;
        };
        QSqlQuery(db).exec(u"FLUSH STATUS"_qs);
        const qint64 before = readRows();
        EventPageQuery query(db);
        const auto page = query.page(request);
        QVERIFY2(page, qPrintable(query.errorText()));
        QCOMPARE(page->size(), 200);
        QVERIFY(page->constFirst().createdAt <= anchor.value(0).toLongLong());
        const qint64 read = readRows() - before;
        QVERIFY2(read < 1000, qPrintable(QString::number(read)));
    }

    // "ID starts with" matches case and accents exactly, also on a MySQL table whose ID column
    // has a case- and accent-insensitive collation (utf8mb4_general_ci, as a profile's table
    // may): the worker asks the column's collation and compares by code point.
    void idPrefixMatchesCaseOnACaseInsensitiveColumn()
    {
        QString skip;
        if (!populate(u"mysql"_qs, 300, &skip))
            QSKIP(qPrintable(skip));
        const QSqlDatabase db = m_connection->database();
        QSqlQuery setup(db);
        for (const QString &sql : {u"CREATE TABLE ci_outbox LIKE delivery_outbox"_qs,
                 u"ALTER TABLE ci_outbox MODIFY event_id VARCHAR(255)"
                 " CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NOT NULL"_qs,
                 u"INSERT INTO ci_outbox SELECT * FROM delivery_outbox"_qs,
                 u"INSERT INTO ci_outbox SELECT 'gen-x1', aggregate_type, aggregate_id,"
                 " event_type, payload, status, failures, next_attempt_at, claim_token,"
                 " lease_until, created_at, delivered_at, last_error_category, last_error"
                 " FROM delivery_outbox WHERE event_id = 'GEN-0000000001'"_qs,
                 u"INSERT INTO ci_outbox SELECT 'G\u00c9N-x2', aggregate_type, aggregate_id,"
                 " event_type, payload, status, failures, next_attempt_at, claim_token,"
                 " lease_until, created_at, delivered_at, last_error_category, last_error"
                 " FROM delivery_outbox WHERE event_id = 'GEN-0000000001'"_qs})
            QVERIFY2(setup.exec(sql), qPrintable(setup.lastError().text()));
        QCOMPARE(scalar(db, u"SELECT count(*) FROM ci_outbox WHERE event_id = 'gen-0000000001'"_qs)
                     .toInt(),
            1); // the server's own comparison ignores case

        auto state = std::make_shared<EventQueryState>();
        EventQueryWorker worker(DatabaseUrl::parse(m_database->url(), nullptr),
            EventListModel::defaultOpenOptions(), state);
        const auto ids = [&](const QString &search) {
            EventPageRequest request;
            request.id = state->newest = state->newest + 1;
            request.source = u"ci_outbox"_qs;
            request.filter = prefix(search);
            request.now = Now;
            request.limit = 1000;
            QSignalSpy answered(&worker, &EventQueryWorker::answered);
            worker.run(request);
            QStringList out;
            if (answered.size() == 1) {
                const auto answer = answered.at(0).at(0).value<EventPageAnswer>();
                for (const EventRow &row : answer.rows)
                    out << row.eventId;
                if (!answer.error.isEmpty())
                    out << answer.error;
            }
            return out;
        };
        QCOMPARE(ids(u"gen-"_qs), QStringList {u"gen-x1"_qs});
        QCOMPARE(ids(u"G\u00c9N"_qs), QStringList {u"G\u00c9N-x2"_qs});
        QCOMPARE(ids(gen(42).chopped(1)).size(), 10); // GEN-0000000040 ... 49
        QCOMPARE(ids(u"GEN-"_qs).size(), 300);
    }

    void prefixUpperBound()
    {
        QCOMPARE(EventFilter::prefixUpperBound(u"E-12"_qs), u"E-13"_qs);
        QCOMPARE(EventFilter::prefixUpperBound(u"Az"_qs), u"A{"_qs);
        QCOMPARE(EventFilter::prefixUpperBound(QString()), QString());
        QCOMPARE(EventFilter::prefixUpperBound(u"a\U0010FFFF"_qs), u"b"_qs);
        QCOMPARE(EventFilter::prefixUpperBound(u"\uD7FF"_qs), u"\uE000"_qs);
    }

    // Typing a search does not stack reads: only the newest answer shows, what was queued is
    // skipped, and on PostgreSQL the statement that ran is cancelled on the server.
    void supersededSearchIsDropped_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void supersededSearchIsDropped()
    {
        QFETCH(QString, engine);
        QString skip;
        // 100,000 rows (SQLite) or 300,000: a read of every row runs long enough to be
        // superseded. A 32nd of them generated, copied 31 times on the server.
        if (!populate(engine, engine == u"sqlite"_qs ? 3125 : 9375, &skip))
            QSKIP(qPrintable(skip));
        QString error;
        QVERIFY2(copyRows(engine, 31, &error), qPrintable(error));
        QCOMPARE(scalar(m_connection->database(), u"SELECT count(*) FROM delivery_outbox"_qs)
                     .toLongLong(),
            engine == u"sqlite"_qs ? 100000 : 300000);
        EventListModel model;
        model.setNow(Now);
        openEvents(model, *m_database);
        QVERIFY(settled(model));
        const EventQueryState *state = model.queryState();
        QSignalSpy loaded(&model, &EventListModel::loaded);
        QSignalSpy errors(&model, &EventListModel::errorOccurred);

        model.setFilter(contains(u"no such text"_qs)); // reads every row
        QTRY_VERIFY(state->running.load() != 0); // the slow statement runs
        model.setFilter(contains(u"nothing at all"_qs)); // queued behind it, then superseded
        model.setFilter(prefix(gen(7))); // the newest
        QVERIFY(settled(model, 60000));
        QCOMPARE(allIds(model), QStringList {gen(7)});
        QCOMPARE(loaded.size(), 1); // the superseded reads never showed
        QCOMPARE(errors.size(), 0); // a cancelled statement is no error
        QVERIFY(model.lastError().isEmpty());
        QVERIFY(state->skipped.load() >= 1);
        if (m_connection->dialect().can().serverSideCancel) {
            QTRY_COMPARE(state->cancelled.load(), 1);
            QVERIFY(state->cancelsSent.load() >= 1);
            // Nothing piles up: no statement of the table still runs on the server.
            const QString running = engine == u"mysql"_qs
                ? u"SELECT count(*) FROM information_schema.PROCESSLIST WHERE COMMAND <> 'Sleep'"
                  " AND INFO LIKE '%LOWER(last_error) LIKE%' AND ID <> CONNECTION_ID()"_qs
                : u"SELECT count(*) FROM pg_stat_activity WHERE state = 'active'"
                  " AND query LIKE '%LOWER(last_error) LIKE%' AND pid <> pg_backend_pid()"_qs;
            QTRY_COMPARE(scalar(m_connection->database(), running).toInt(), 0);
        }
    }

    // pg_cancel_backend() that reaches the backend between two of the read's round trips finds
    // it idle and is dropped, so the canceller sends it again while the superseded read still
    // runs, more slowly each time, and stops once that read has ended.
    void cancelIsSentAgainWhileTheSupersededReadRuns_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addRow("postgresql") << u"postgresql"_qs;
        QTest::addRow("mysql") << u"mysql"_qs;
    }
    void cancelIsSentAgainWhileTheSupersededReadRuns()
    {
        QFETCH(QString, engine);
        QString skip;
        if (!populate(engine, 10, &skip))
            QSKIP(qPrintable(skip));
        auto state = std::make_shared<EventQueryState>();
        // An idle backend: each cancel reaches it and is dropped, as between round trips.
        state->backendPid
            = scalar(m_connection->database(), m_connection->dialect().backendIdSql()).toInt();
        state->newest = 2;
        state->running = 1; // superseded
        EventQueryCanceller canceller(DatabaseUrl::parse(m_database->url(), nullptr), state);
        canceller.cancelSuperseded();
        QCOMPARE(state->cancelsSent.load(), 1);
        QTRY_VERIFY(state->cancelsSent.load() >= 4); // again after 20, 40 and 80 ms

        auto *retry = canceller.findChild<QTimer *>();
        QVERIFY(retry && retry->isActive());
        state->running = 0; // the read ended
        const int sent = state->cancelsSent.load();
        QTRY_VERIFY(!retry->isActive()); // the last one fired and found nothing to cancel
        QCOMPARE(state->cancelsSent.load(), sent);
        QCOMPARE(scalar(m_connection->database(), u"SELECT 1"_qs).toInt(), 1); // unharmed
    }

    // A read longer than the timeout is stopped, says so in plain words where the table is,
    // and the rows stay. The read is made long for certain, whatever the machine's speed: a
    // migration holds the table (ACCESS EXCLUSIVE), so the search waits until its timeout.
    void timedOutReadKeepsTheRows_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addRow("postgresql") << u"postgresql"_qs;
        QTest::addRow("mysql") << u"mysql"_qs;
    }
    void timedOutReadKeepsTheRows()
    {
        QFETCH(QString, engine);
        QString skip;
        if (!populate(engine, 1000, &skip))
            QSKIP(qPrintable(skip));
        QCoreApplication::setOrganizationName(u"OutboxHealthTest"_qs);
        QCoreApplication::setApplicationName(u"tst_eventqueries"_qs);
        QSettings().setValue(u"window/statementTimeoutMs"_qs, 1000);
        const OpenOptions options = EventListModel::defaultOpenOptions();
        QSettings().remove(u"window/statementTimeoutMs"_qs);
        QCOMPARE(options.statementTimeoutMs, 1000);
        QCOMPARE(EventListModel::defaultOpenOptions().statementTimeoutMs, 10000);

        EventListModel model;
        QTableView view;
        view.setModel(&model);
        EventTableStatus status(&model, &view);
        model.setNow(Now);
        openEvents(model, *m_database, options);
        QVERIFY(settled(model));
        QCOMPARE(model.rowCount(), EventListModel::PageSize);
        const QString first = model.eventIdAt(0);

        // MySQL: LOCK TABLES ... WRITE holds the table's metadata lock, as ALTER TABLE does.
        const bool mysql = engine == u"mysql"_qs;
        QSqlDatabase migration = m_connection->database();
        QVERIFY(mysql || migration.transaction());
        QSqlQuery lock(migration);
        QVERIFY2(lock.exec(mysql ? u"LOCK TABLES delivery_outbox WRITE"_qs
                                 : u"LOCK TABLE delivery_outbox IN ACCESS EXCLUSIVE MODE"_qs),
            qPrintable(lock.lastError().text()));
        QElapsedTimer waited;
        waited.start();
        model.setFilter(contains(u"no such text"_qs));
        // While it waits, the table says it searches, and for how long.
        const QLabel *searching = status.findChild<QLabel *>(u"eventLoadingLabel"_qs);
        QTRY_VERIFY(!searching->isHidden());
        QVERIFY2(
            QRegularExpression(u"^Searching… \\d+\\.\\d s$"_qs).match(searching->text()).hasMatch(),
            qPrintable(searching->text()));
        QVERIFY(settled(model, 60000));
        QVERIFY(searching->isHidden());
        QVERIFY2(model.hasTimedOut(), qPrintable(model.lastError()));
        QVERIFY(waited.elapsed() >= 1000); // stopped by the timeout, not sooner
        QCOMPARE(model.lastError(),
            u"Cancelled at the statement timeout (1 s). Narrow it by state, or search an "
            "event ID (\"ID starts with\")."_qs);
        QCOMPARE(model.rowCount(), EventListModel::PageSize); // kept
        QCOMPARE(model.eventIdAt(0), first);
        const QLabel *message = status.findChild<QLabel *>(u"eventMessageLabel"_qs);
        QVERIFY(!message->text().isEmpty());
        // One line (cut to the label's width), the whole message in its tooltip.
        QVERIFY2(model.lastError().startsWith(message->text().chopped(1)), qPrintable(message->text()));
        QCOMPARE(message->toolTip(), model.lastError());
        if (mysql)
            QVERIFY2(lock.exec(u"UNLOCK TABLES"_qs), qPrintable(lock.lastError().text()));
        else
            QVERIFY(migration.rollback());

        model.setFilter(prefix(gen(3))); // the table is free again: the answer comes
        QVERIFY(settled(model));
        QVERIFY(!model.hasTimedOut());
        QCOMPARE(allIds(model), QStringList {gen(3)});
        QVERIFY(message->text().isEmpty());
        QVERIFY(message->toolTip().isEmpty());
    }

    void noEventsMatch_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void noEventsMatch()
    {
        QFETCH(QString, engine);
        QString skip;
        if (!populate(engine, 300, &skip))
            QSKIP(qPrintable(skip));
        EventListModel model;
        QTableView view;
        view.setModel(&model);
        EventTableStatus status(&model, &view);
        view.resize(600, 400);
        view.show();
        auto *overlay = view.viewport()->findChild<QLabel *>(u"eventOverlayLabel"_qs);
        QVERIFY(overlay);
        openEvents(model, *m_database);
        QVERIFY(settled(model));
        QVERIFY(!overlay->isVisible());
        QCOMPARE(status.findChild<QLabel *>(u"eventCountLabel"_qs)->text(), u"300 events match"_qs);

        EventFilter filter = prefix(u"NOPE"_qs);
        filter.state = EventFilter::State::Dead;
        model.setFilter(filter);
        QVERIFY(settled(model));
        QCOMPARE(model.rowCount(), 0);
        QTRY_VERIFY(overlay->isVisible());
        QCOMPARE(overlay->text(), u"No events match state dead, ID starting with \"NOPE\"."_qs);
        QCOMPARE(status.findChild<QLabel *>(u"eventCountLabel"_qs)->text(), u"No events match"_qs);

        model.setFilter({});
        QVERIFY(settled(model));
        QVERIFY(!overlay->isVisible());
    }

    // What --state dead --sort failures:desc --search GEN-00000000 opens on.
    void windowOpensOnAView()
    {
        QString skip;
        if (!populate(u"sqlite"_qs, 500, &skip))
            QSKIP(qPrintable(skip));
        QString error;
        const auto view = EventView::fromOptions(
            u"GEN-00000000"_qs, {}, u"dead"_qs, u"failures:desc"_qs, &error);
        QVERIFY2(view, qPrintable(error));
        MainWindow window(m_database->connect(), {});
        window.openEventView(view->filter, view->sortColumn, view->sortOrder);
        EventListModel *model = window.eventModel();
        QTRY_VERIFY(!model->isLoading());
        QCOMPARE(model->filter().state, EventFilter::State::Dead);
        QCOMPARE(model->filter().search, u"GEN-00000000"_qs);
        QCOMPARE(model->sortColumn(), int(EventListModel::FailuresColumn));
        QCOMPARE(model->sortOrder(), Qt::DescendingOrder);
        QCOMPARE(window.findChild<FilterBar *>()->filter().state, EventFilter::State::Dead);
        QVERIFY(model->rowCount() > 0);
        for (int row = 0; row < model->rowCount(); ++row) {
            QCOMPARE(model->index(row, 0).data(EventListModel::StatusRole).toString(), u"DEAD"_qs);
            QVERIFY(model->eventIdAt(row).startsWith(u"GEN-00000000"_qs));
            if (row > 0)
                QVERIFY(model->index(row - 1, EventListModel::FailuresColumn).data().toInt()
                    >= model->index(row, EventListModel::FailuresColumn).data().toInt());
        }
    }

    // What --search '{"sku":"SKU-2"}' --search-mode payload opens on: the filter bar's
    // "payload contains" holds the fragment and every row shown has it in its payload.
    void windowOpensOnAPayloadSearch()
    {
        QString skip;
        if (!populate(u"sqlite"_qs, 500, &skip))
            QSKIP(qPrintable(skip));
        QString error;
        const QString fragment = u"{\"sku\":\"SKU-2\"}"_qs;
        const auto view = EventView::fromOptions(fragment, u"payload"_qs, {}, {}, &error);
        QVERIFY2(view, qPrintable(error));
        QVERIFY(view->filter.search.isEmpty());
        MainWindow window(m_database->connect(), {});
        window.openEventView(view->filter, view->sortColumn, view->sortOrder);
        EventListModel *model = window.eventModel();
        QTRY_VERIFY(!model->isLoading());
        QCOMPARE(model->filter().payloadContains, fragment);
        QCOMPARE(window.findChild<FilterBar *>()->filter().payloadContains, fragment); // the field
        QVERIFY(model->rowCount() > 0);
        const auto connection = m_database->connect();
        QSqlQuery all(connection->database());
        QVERIFY(all.exec(u"SELECT COUNT(*) FROM delivery_outbox WHERE payload LIKE '%\"sku\":\"SKU-2\"%'"_qs));
        QVERIFY(all.next());
        QVERIFY(all.value(0).toInt() < 500); // some rows do not match: the filter has work
        for (int row = 0; row < model->rowCount(); ++row) {
            QSqlQuery payload(connection->database());
            payload.prepare(u"SELECT payload FROM delivery_outbox WHERE event_id = ?"_qs);
            payload.addBindValue(model->eventIdAt(row));
            QVERIFY(payload.exec() && payload.next());
            QVERIFY2(payload.value(0).toString().contains(u"\"sku\":\"SKU-2\""_qs),
                qPrintable(model->eventIdAt(row)));
        }
    }

    void viewFromCommandLine_data()
    {
        QTest::addColumn<QString>("search");
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QString>("state");
        QTest::addColumn<QString>("sort");
        QTest::addColumn<QString>("expected"); // "state|mode|column|order" or the error
        QTest::addRow("defaults") << ""
                                  << ""
                                  << ""
                                  << ""
                                  << "any|0|5|0";
        QTest::addRow("dead by failures, most first") << ""
                                                      << ""
                                                      << "DEAD"
                                                      << "failures:desc"
                                                      << "dead|0|4|1";
        QTest::addRow("age") << "E-1"
                             << ""
                             << "due"
                             << "age"
                             << "due|0|5|0";
        QTest::addRow("header title with a space") << ""
                                                   << ""
                                                   << ""
                                                   << "Next-Attempt:asc"
                                                   << "any|0|6|0";
        QTest::addRow("text search") << "timeout"
                                     << "text"
                                     << ""
                                     << "event id"
                                     << "any|1|0|0";
        QTest::addRow("unknown state")
            << ""
            << ""
            << "bogus"
            << ""
            << "unknown state \"bogus\" (one of: any, pending, due, scheduled, in-flight, "
               "lease-expired, delivered, dead, resolved)";
        QTest::addRow("unknown column")
            << ""
            << ""
            << ""
            << "colour"
            << "unknown sort column \"colour\" (one of: event-id, type, failures, age, "
               "next-attempt, error)";
        QTest::addRow("unsortable column")
            << ""
            << ""
            << ""
            << "state"
            << "unknown sort column \"state\" (one of: event-id, type, failures, age, "
               "next-attempt, error)";
        QTest::addRow("bad order") << ""
                                   << ""
                                   << ""
                                   << "age:up"
                                   << "unknown sort order \"up\" (asc or desc)";
        QTest::addRow("bad mode") << "x"
                                  << "regex"
                                  << ""
                                  << ""
                                  << "unknown search mode \"regex\" (id, text or payload)";
        // A link or a command line is checked as the filter bar checks what is typed in it.
        QTest::addRow("payload on a redacted key")
            << "{\"password\": \"hunter2\"}"
            << "payload"
            << ""
            << ""
            << "--search with --search-mode payload: payload search cannot name \"password\": "
               "its value is redacted";
        QTest::addRow("payload not JSON")
            << "{\"sku\": "
            << "payload"
            << ""
            << ""
            << "--search with --search-mode payload: payload search is not valid JSON (unterminated "
               "object at offset 7); plain text must not start with { or [";
    }
    void viewFromCommandLine()
    {
        QFETCH(QString, search);
        QFETCH(QString, mode);
        QFETCH(QString, state);
        QFETCH(QString, sort);
        QFETCH(QString, expected);
        QString error;
        const auto view = EventView::fromOptions(search, mode, state, sort, &error);
        const QString got = view ? QStringLiteral("%1|%2|%3|%4")
                                       .arg(EventFilter::stateName(view->filter.state))
                                       .arg(int(view->filter.searchMode))
                                       .arg(view->sortColumn)
                                       .arg(int(view->sortOrder))
                                 : error;
        QCOMPARE(got, expected);
        if (view)
            QCOMPARE(view->filter.search, search);
    }
};

OUTBOX_TEST_MAIN(TestEventQueries, QApplication)
#include "tst_eventqueries.moc"
