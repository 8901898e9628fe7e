// The event table's bounded window on SQLite and PostgreSQL: scrolling down through 5,000 rows
// keeps at most MaxRows rows in the model while every window is a contiguous slice of the
// keyset order, scrolling back up brings the beginning back, a refresh keeps the window where
// it is, and a table view keeps showing the same rows while the window moves under it.
#include "eventlistmodel.h"
#include "eventwait.h"
#include "eventwindowscroller.h"
#include "outboxgenerator.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QScrollBar>
#include <QTableView>

namespace {

constexpr qint64 Now = 1700000000000;
constexpr int Events = 5000;

QStringList idsOf(const EventListModel &model)
{
    QStringList ids;
    for (int row = 0; row < model.rowCount(); ++row)
        ids << model.eventIdAt(row);
    return ids;
}

// The rows held are the ones that follow each other in the full order.
bool isSlice(const QStringList &window, const QStringList &all)
{
    const qsizetype at = window.isEmpty() ? -1 : all.indexOf(window.constFirst());
    return at >= 0 && all.mid(at, window.size()) == window;
}

bool isVisible(const QTableView &view, const EventListModel &model, const QString &eventId)
{
    const int row = model.rowOfEvent(eventId);
    return row >= 0 && view.viewport()->rect().intersects(view.visualRect(model.index(row, 0)));
}

} // namespace

class TestEventWindow : public QObject
{
    Q_OBJECT

    std::unique_ptr<TestDatabase> m_database;
    std::unique_ptr<DbConnection> m_connection;

    bool populate(const QString &engine, QString *skip)
    {
        QString fail;
        m_database = TestDatabase::create(engine, skip, &fail);
        if (!m_database)
            return false;
        m_connection = m_database->initialise();
        QString error;
        return m_connection
            && OutboxGenerator(m_connection->database()).generate({Events, 5, Now}, &error);
    }

    QStringList orderedIds(const QString &orderBy) const
    {
        QStringList ids;
        QSqlQuery query(m_connection->database());
        query.exec(u"SELECT event_id FROM delivery_outbox ORDER BY "_qs + orderBy);
        while (query.next())
            ids << query.value(0).toString();
        return ids;
    }

private slots:
    void cleanup()
    {
        m_connection.reset();
        m_database.reset();
    }

    void scrollingKeepsTheWindowBounded_data()
    {
        TestDatabase::addEngineColumn();
        QTest::addColumn<int>("column");
        QTest::addColumn<int>("order");
        QTest::addColumn<QString>("orderBy");
        for (const QString &engine : {u"sqlite"_qs, u"postgresql"_qs}) {
            QTest::addRow("%s: newest first", qPrintable(engine))
                << engine << int(EventListModel::AgeColumn) << int(Qt::AscendingOrder)
                << u"created_at DESC, event_id DESC"_qs;
            QTest::addRow("%s: event ID descending", qPrintable(engine))
                << engine << int(EventListModel::EventIdColumn) << int(Qt::DescendingOrder)
                << u"event_id DESC"_qs;
        }
    }
    void scrollingKeepsTheWindowBounded()
    {
        QFETCH(QString, engine);
        QFETCH(int, column);
        QFETCH(int, order);
        QFETCH(QString, orderBy);
        QString skip;
        if (!populate(engine, &skip))
            QSKIP(qPrintable(skip));
        const QStringList all = orderedIds(orderBy);
        QCOMPARE(all.size(), Events);

        EventListModel model;
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy shifts(&model, &EventListModel::windowShifted);
        model.setNow(Now);
        openEvents(model, *m_database);
        model.sort(column, Qt::SortOrder(order));
        QVERIFY(settled(model));
        QCOMPARE(idsOf(model), all.mid(0, EventListModel::PageSize));
        QVERIFY(!model.canFetchPrevious());

        while (model.canFetchMore({})) {
            model.fetchMore({});
            QVERIFY(settled(model));
            QVERIFY(model.rowCount() <= EventListModel::MaxRows);
            QVERIFY(isSlice(idsOf(model), all));
        }
        QCOMPARE(model.rowCount(), EventListModel::MaxRows);
        QCOMPARE(model.eventIdAt(model.rowCount() - 1), all.constLast());
        QVERIFY(model.canFetchPrevious());
        int dropped = 0;
        for (const QList<QVariant> &shift : shifts)
            dropped -= shift.at(0).toInt();
        QCOMPARE(dropped, Events - EventListModel::MaxRows);

        shifts.clear();
        while (model.canFetchPrevious()) {
            model.fetchPrevious();
            QVERIFY(settled(model));
            QVERIFY(model.rowCount() <= EventListModel::MaxRows);
            QVERIFY(isSlice(idsOf(model), all));
        }
        QCOMPARE(idsOf(model), all.mid(0, EventListModel::MaxRows));
        QVERIFY(model.canFetchMore({}));
        int added = 0;
        for (const QList<QVariant> &shift : shifts)
            added += shift.at(0).toInt();
        QCOMPARE(added, Events - EventListModel::MaxRows);
    }

    void refreshKeepsTheWindowInPlace_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void refreshKeepsTheWindowInPlace()
    {
        QFETCH(QString, engine);
        QString skip;
        if (!populate(engine, &skip))
            QSKIP(qPrintable(skip));
        EventListModel model;
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setNow(Now);
        openEvents(model, *m_database);
        QVERIFY(settled(model));
        for (int page = 0; page < 15; ++page) {
            model.fetchMore({});
            QVERIFY(settled(model));
        }
        const QStringList before = idsOf(model);
        QCOMPARE(before.size(), EventListModel::MaxRows);
        QVERIFY(before.constFirst() != u"GEN-0000000001"_qs);
        QVERIFY(model.refresh());
        QCOMPARE(idsOf(model), before); // kept while the read runs
        QVERIFY(settled(model));
        QCOMPARE(idsOf(model), before);
        QVERIFY(model.canFetchPrevious());
    }

    // The rows on screen stay on screen while pages come and go at either end of the window.
    void theViewKeepsItsRows()
    {
        QString skip;
        if (!populate(u"sqlite"_qs, &skip))
            QSKIP(qPrintable(skip));
        EventListModel model;
        model.setNow(Now);
        openEvents(model, *m_database);
        QVERIFY(settled(model));
        QTableView view;
        view.setModel(&model);
        new EventWindowScroller(&view, &model, &view);
        view.resize(600, 400);
        view.show();
        QScrollBar *bar = view.verticalScrollBar();
        for (int page = 0; page < 20; ++page) { // through the bound and on
            view.doItemsLayout();
            const QString last = model.eventIdAt(model.rowCount() - 1);
            bar->setValue(bar->maximum()); // the view fetches the next page
            QVERIFY(settled(model));
            view.doItemsLayout();
            QVERIFY2(isVisible(view, model, last), qPrintable(QStringLiteral("page %1").arg(page)));
        }
        QCOMPARE(model.rowCount(), EventListModel::MaxRows);
        QVERIFY(model.canFetchPrevious());
        for (int page = 0; page < 5; ++page) {
            const QString first = model.eventIdAt(0);
            bar->setValue(bar->minimum()); // the scroller fetches the page before
            QVERIFY(settled(model));
            view.doItemsLayout();
            QVERIFY2(
                isVisible(view, model, first), qPrintable(QStringLiteral("page %1 up").arg(page)));
            QVERIFY(model.eventIdAt(0) != first);
        }
        QCOMPARE(model.rowCount(), EventListModel::MaxRows);
    }
};

OUTBOX_TEST_MAIN(TestEventWindow, QApplication)
#include "tst_eventwindow.moc"
