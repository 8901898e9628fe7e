// The event list and attempt models against rows the store wrote, on both engines: derived
// states at a given now, every filter, keyset paging through every sort without gaps or
// repeats, and the master-detail attempt history.
#include "attemptmodel.h"
#include "eventlistmodel.h"
#include "eventwait.h"
#include "outboxstore.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QAbstractItemModelTester>
#include <QSet>

namespace {

NewEvent newEvent(int i, qint64 createdAt)
{
    return {QStringLiteral("E-%1").arg(i, 4, 10, QLatin1Char('0')), QStringLiteral("Order"),
        QString::number(i), i % 2 ? QStringLiteral("StockReserved") : QStringLiteral("OrderPlaced"),
        QStringLiteral("{}"), createdAt};
}

QStringList ids(EventListModel &model)
{
    return allIds(model);
}

} // namespace

class TestEventModels : public QObject
{
    Q_OBJECT

    std::unique_ptr<TestDatabase> m_database;
    std::unique_ptr<DbConnection> m_connection;

    // Six events in six states at now = 1000, plus `extra` plain due events.
    bool populate(const QString &engine, int extra, QString *skip)
    {
        QString fail;
        m_database = TestDatabase::create(engine, skip, &fail);
        if (!m_database)
            return false;
        m_connection = m_database->initialise();
        if (!m_connection)
            return false;
        OutboxStore store(m_connection->database());
        store.setLeaseDuration(100);
        for (int i = 1; i <= 6; ++i)
            store.insertEvent(newEvent(i, 100 * i));
        store.ack(store.claim(QStringLiteral("E-0001"), QStringLiteral("w"), 100).claim, 110,
            QStringLiteral("APPLIED"));
        store.fail(store.claim(QStringLiteral("E-0002"), QStringLiteral("w"), 200).claim, 210,
            ErrorCategory::Permanent, QStringLiteral("schema"));
        store.fail(store.claim(QStringLiteral("E-0003"), QStringLiteral("w"), 300).claim, 990,
            ErrorCategory::Transient, QStringLiteral("down")); // due at 1000
        store.claim(QStringLiteral("E-0004"), QStringLiteral("w"), 950); // in flight until 1050
        store.claim(QStringLiteral("E-0005"), QStringLiteral("w"), 850); // lease expired at 950
        for (int i = 0; i < extra; ++i)
            store.insertEvent(newEvent(100 + i, 700 + i % 37));
        return true;
    }

private slots:
    void cleanup()
    {
        m_connection.reset();
        m_database.reset();
    }

    void derivedStatesAndFilters_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void derivedStatesAndFilters()
    {
        QFETCH(QString, engine);
        QString skip;
        if (!populate(engine, 0, &skip))
            QSKIP(qPrintable(skip));
        EventListModel model;
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setNow(1000);
        openEvents(model, *m_database);
        QVERIFY(model.isLoading()); // the rows come from the worker
        QVERIFY(settled(model));
        QCOMPARE(model.rowCount(), 6);
        QStringList states;
        for (int row = 0; row < model.rowCount(); ++row)
            states << model.index(row, EventListModel::StateColumn).data().toString();
        QCOMPARE(states,
            QStringList({u"DELIVERED"_qs, u"DEAD"_qs, u"DUE"_qs, u"IN FLIGHT"_qs,
                u"LEASE EXPIRED"_qs, u"DUE"_qs}));
        QCOMPARE(model.index(1, 0).data(EventListModel::StatusRole).toString(), u"DEAD"_qs);

        auto only = [&](EventFilter filter) {
            model.setFilter(filter);
            if (!settled(model))
                return QStringList {u"no answer"_qs};
            return ids(model);
        };
        EventFilter f;
        f.state = EventFilter::State::Due;
        QCOMPARE(only(f), QStringList({u"E-0003"_qs, u"E-0006"_qs}));
        f.state = EventFilter::State::InFlight;
        QCOMPARE(only(f), QStringList {u"E-0004"_qs});
        f.state = EventFilter::State::LeaseExpired;
        QCOMPARE(only(f), QStringList {u"E-0005"_qs});
        f.state = EventFilter::State::Dead;
        QCOMPARE(only(f), QStringList {u"E-0002"_qs});
        f = {};
        f.search = u"E-000"_qs; // an ID prefix, the default mode
        QCOMPARE(only(f).size(), 6);
        f.search = u"E-0003"_qs; // an exact ID
        QCOMPARE(only(f), QStringList {u"E-0003"_qs});
        f.search = u"e-000"_qs; // IDs are matched exactly, case included
        QCOMPARE(only(f), QStringList {});
        f.search = u"E-%"_qs; // no wildcard in a prefix
        QCOMPARE(only(f), QStringList {});
        f.searchMode = EventFilter::SearchMode::Contains;
        f.search = u"e-000"_qs;
        QCOMPARE(only(f).size(), 6);
        f.search = u"placed"_qs; // event type, case-insensitive
        QCOMPARE(only(f), QStringList({u"E-0002"_qs, u"E-0004"_qs, u"E-0006"_qs}));
        f.search = u"SCHEMA"_qs; // last error
        QCOMPARE(only(f), QStringList {u"E-0002"_qs});
        f.search = u"%"_qs; // a wildcard character is matched literally
        QCOMPARE(only(f), QStringList {});
        f = {};
        f.minFailures = 1;
        QCOMPARE(only(f), QStringList({u"E-0002"_qs, u"E-0003"_qs}));
        f = {};
        f.errorCategory = u"PERMANENT"_qs;
        QCOMPARE(only(f), QStringList {u"E-0002"_qs});
        f = {};
        f.minAgeMs = 500; // created at or before 500
        f.maxAgeMs = 800; // created at or after 200
        QCOMPARE(only(f), QStringList({u"E-0002"_qs, u"E-0003"_qs, u"E-0004"_qs, u"E-0005"_qs}));
    }

    void keysetPagingCoversEverySort_data()
    {
        TestDatabase::addEngineColumn();
        QTest::addColumn<int>("column");
        QTest::addColumn<int>("order");
        for (const QString &engine : {u"sqlite"_qs, u"postgresql"_qs}) {
            for (int column : {int(EventListModel::EventIdColumn), int(EventListModel::TypeColumn),
                     int(EventListModel::FailuresColumn), int(EventListModel::AgeColumn),
                     int(EventListModel::NextAttemptColumn),
                     int(EventListModel::ErrorCategoryColumn)}) {
                QTest::addRow("%s: column %d ascending", qPrintable(engine), column)
                    << engine << column << int(Qt::AscendingOrder);
                QTest::addRow("%s: column %d descending", qPrintable(engine), column)
                    << engine << column << int(Qt::DescendingOrder);
            }
        }
    }
    void keysetPagingCoversEverySort()
    {
        QFETCH(QString, engine);
        QFETCH(int, column);
        QFETCH(int, order);
        QString skip;
        if (!populate(engine, 530, &skip)) // several pages, with many ties in every sort key
            QSKIP(qPrintable(skip));
        {
            EventListModel firstPage;
            openEvents(firstPage, *m_database);
            QVERIFY(settled(firstPage));
            QCOMPARE(firstPage.rowCount(), EventListModel::PageSize); // one page at first
            QVERIFY(firstPage.canFetchMore({}));
        }
        EventListModel model;
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setNow(1000);
        openEvents(model, *m_database);
        model.sort(column, Qt::SortOrder(order));
        QVERIFY(settled(model));
        const QStringList all = ids(model);
        QCOMPARE(all.size(), 536);
        QCOMPARE(QSet<QString>(all.cbegin(), all.cend()).size(), 536);
        // The order agrees with the key shown, page boundaries included.
        for (int row = 1; row < model.rowCount(); ++row) {
            if (column == EventListModel::FailuresColumn) {
                const int a = model.index(row - 1, column).data().toInt(),
                          b = model.index(row, column).data().toInt();
                QVERIFY(order == Qt::AscendingOrder ? a <= b : a >= b);
            }
        }
        // A refresh keeps what is loaded.
        QVERIFY(model.refresh());
        QVERIFY(!model.refresh()); // one read at a time: a tick while it runs is skipped
        QVERIFY(settled(model));
        QCOMPARE(model.rowCount(), 536);
    }

    void attemptsOfTheSelectedEvent_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void attemptsOfTheSelectedEvent()
    {
        QFETCH(QString, engine);
        QString skip;
        if (!populate(engine, 0, &skip))
            QSKIP(qPrintable(skip));
        OutboxStore store(m_connection->database());
        store.ack(store.claim(QStringLiteral("E-0003"), QStringLiteral("w2"), 1000).claim, 1001,
            QStringLiteral("DUPLICATE"));

        AttemptModel attempts;
        QAbstractItemModelTester tester(
            &attempts, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(attempts.setEvent(m_connection->database(), QStringLiteral("E-0003")));
        QCOMPARE(attempts.rowCount(), 2);
        QCOMPARE(attempts.index(0, AttemptModel::OutcomeColumn).data().toString(), u"RETRY"_qs);
        QCOMPARE(
            attempts.index(0, AttemptModel::NextAttemptColumn).data().toString(), u"t=1000"_qs);
        QCOMPARE(attempts.index(1, AttemptModel::WorkerColumn).data().toString(), u"w2"_qs);
        QCOMPARE(attempts.index(1, AttemptModel::ConsumerResultColumn).data().toString(),
            u"DUPLICATE"_qs);
        QCOMPARE(attempts.index(1, AttemptModel::ClaimedColumn)
                     .data(AttemptModel::RawValueRole)
                     .toLongLong(),
            1000);
        QVERIFY(attempts.setEvent(m_connection->database(), QStringLiteral("E-0004")));
        QCOMPARE(attempts.rowCount(), 1);
        QCOMPARE(attempts.index(0, AttemptModel::OutcomeColumn).data().toString(), u"in flight"_qs);
        QVERIFY(attempts.setEvent(m_connection->database(), QStringLiteral("E-0006")));
        QCOMPARE(attempts.rowCount(), 0);
    }
};

OUTBOX_TEST_MAIN(TestEventModels, QCoreApplication)
#include "tst_eventmodels.moc"
