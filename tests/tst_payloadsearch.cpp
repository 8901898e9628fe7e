// "Payload contains" on SQLite, PostgreSQL and MariaDB: a JSON fragment finds exactly the
// payloads that contain it (top level, nested objects, array elements, a number apart from
// the same digits as a string), plain text is a case-insensitive substring whose LIKE
// wildcards are matched literally; a fragment that is not JSON, one of 10 MB, one naming a
// redacted key (at any depth) and plain text while values are redacted are refused with a
// clear line before anything is queried, so a redacted value cannot be found by searching
// for it. `outboxctl export` and `replay --all-dead --payload-contains` select exactly the
// matching events (replay changes only those; a refused search changes nothing), and the
// window's filter field shows the matching rows, names a bad fragment under the bar without
// querying, and runs no statement on the GUI thread. Through a profile that maps no payload
// column, the field is disabled and the CLI refuses, both with one clear line, and nothing is
// searched.
#include "dbconnection.h"
#include "eventfilter.h"
#include "eventlistmodel.h"
#include "filterbar.h"
#include "fixturescript.h"
#include "mainwindow.h"
#include "outboxctlrun.h"
#include "parkedevents.h"
#include "payloadsearch.h"
#include "profileparser.h"
#include "redaction.h"
#include "sqldialect.h"
#include "testdata.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>

namespace {

// Known rows (test data): payloads that differ in one detail each.
bool populate(const QSqlDatabase &db)
{
    const QString insert = u"INSERT INTO delivery_outbox (event_id, aggregate_type, aggregate_id,"
                           " event_type, payload, status, failures, next_attempt_at, created_at)"
                           " VALUES ('%1', 'Order', '1', 'T', '%2', '%3', 3, 0, 100)"_qs;
    const QList<QStringList> rows = {
        {u"P-1"_qs,
            uR"({"orderId": 4711, "customer": {"id": 7, "tier": "gold"}, "tags": ["a", "b"], "password": "hunter2"})"_qs,
            u"DEAD"_qs},
        {u"P-2"_qs, uR"({"orderId": 4712, "customer": {"id": 8}, "note": "100% off_sale"})"_qs,
            u"DEAD"_qs},
        {u"P-3"_qs, uR"({"orderId": "4711"})"_qs, u"DEAD"_qs},
        {u"P-4"_qs, uR"([1, 2, {"k": "v"}])"_qs, u"DEAD"_qs},
        {u"P-5"_qs, uR"({"orderId": 4711, "customer": {"id": 9}})"_qs, u"PENDING"_qs},
    };
    for (const QStringList &row : rows) {
        if (!exec(db, insert.arg(row.at(0), row.at(1), row.at(2))))
            return false;
    }
    return true;
}

// The IDs the filter's WHERE clause selects, as every reader builds it; "error: ..." when the
// statement fails.
QStringList matching(const QSqlDatabase &db, const EventFilter &filter)
{
    const SqlDialect &dialect = SqlDialect::of(db);
    QSqlQuery query(db);
    if (!query.prepare(u"SELECT event_id FROM delivery_outbox WHERE "_qs
            + filter.whereClause(dialect) + u" ORDER BY event_id"_qs))
        return {u"error: "_qs + query.lastError().text()};
    filter.bindValues(query, 1000, dialect);
    if (!query.exec())
        return {u"error: "_qs + query.lastError().text()};
    QStringList ids;
    while (query.next())
        ids << query.value(0).toString();
    return ids;
}

QStringList statuses(const QSqlDatabase &db)
{
    QStringList out;
    QSqlQuery query(db);
    query.exec(u"SELECT event_id, status FROM delivery_outbox ORDER BY event_id"_qs);
    while (query.next())
        out << query.value(0).toString() + u' ' + query.value(1).toString();
    return out;
}

// The event IDs (first column) of a CSV export, header left out.
QStringList exportedIds(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {u"unreadable"_qs};
    QStringList ids;
    const QStringList lines = QString::fromUtf8(file.readAll()).split(u'\n', Qt::SkipEmptyParts);
    for (qsizetype i = 1; i < lines.size(); ++i)
        ids << lines.at(i).section(u',', 0, 0);
    return ids;
}

// The shop's states by job, through no profile: what a replay would change.
QStringList shopStates(const QSqlDatabase &db)
{
    QStringList out;
    QSqlQuery query(db);
    query.exec(u"SELECT job_id, state FROM shop_outbox ORDER BY job_id"_qs);
    while (query.next())
        out << query.value(0).toString() + u' ' + query.value(1).toString();
    return out;
}

// fixtures/custom.profile without its payload line, written to `path`: a table whose events
// carry no payload the profile can name.
bool writeProfileWithoutPayload(const QString &path)
{
    QFile fixture(TestData::path("fixtures/custom.profile"));
    QFile out(path);
    if (!fixture.open(QIODevice::ReadOnly) || !out.open(QIODevice::WriteOnly))
        return false;
    QStringList lines = QString::fromUtf8(fixture.readAll()).split(u'\n');
    if (lines.removeAll(u"payload = body"_qs) != 1)
        return false;
    return out.write(lines.join(u'\n').toUtf8()) > 0;
}

void writeSensitiveKeys(const QString &configDir, const QString &line)
{
    QDir(configDir).mkpath(u"OutboxHealth"_qs);
    QFile settings(QDir(configDir).filePath(u"OutboxHealth/Outbox Health.conf"_qs));
    QVERIFY(settings.open(QIODevice::WriteOnly));
    settings.write(line.toUtf8());
}

} // namespace

class TestPayloadSearch : public QObject
{
    Q_OBJECT

    QTemporaryDir m_config; // the CLI's and the window's settings, never the user's

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(qEnvironmentVariable("OUTBOXCTL")),
            "OUTBOXCTL must name the binary (set by CTest)");
        QVERIFY(m_config.isValid());
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_config.path()));
        QCoreApplication::setOrganizationName(u"OutboxHealthTest"_qs);
        QCoreApplication::setApplicationName(u"Outbox Health"_qs);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_config.path());
    }

    void init()
    {
        QSettings().clear();
        QFile::remove(QDir(m_config.path()).filePath(u"OutboxHealth/Outbox Health.conf"_qs));
    }

    void refusedBeforeAnyQuery_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("why");
        QTest::addRow("not JSON") << uR"({"orderId": 47)"_qs << u"is not valid JSON"_qs;
        QTest::addRow("array not closed") << u"[1, 2"_qs << u"is not valid JSON"_qs;
        QTest::addRow("10 MB fragment") << u"{\"k\": \""_qs + QString(10 * 1024 * 1024, u'x')
                + u"\"}"_qs << u"too long: at most 4096 bytes"_qs;
        QTest::addRow("nested 33 deep") << QString(33, u'[') + QString(33, u']')
                                        << u"nests too deep: at most 32 levels, got 33"_qs;
        QTest::addRow("redacted key") << uR"({"password": "hunter2"})"_qs
                                      << u"cannot name \"password\": its value is redacted"_qs;
        QTest::addRow("redacted key, nested")
            << uR"({"customer": {"E-Mail": "a@b.c"}})"_qs << u"cannot name \"E-Mail\""_qs;
        QTest::addRow("redacted key, in an array")
            << uR"([{"apiToken": "t"}])"_qs << u"cannot name \"apiToken\""_qs;
        QTest::addRow("plain text while redacted")
            << u"hunter2"_qs
            << u"plain-text payload search is off while payload values are redacted"_qs;
    }
    void refusedBeforeAnyQuery()
    {
        QFETCH(QString, input);
        QFETCH(QString, why);
        QString error;
        const PayloadSearch search
            = PayloadSearch::parse(input, Redaction::defaultSensitiveKeys(), &error);
        QCOMPARE(search.kind, PayloadSearch::Kind::None);
        QVERIFY2(error.contains(why), qPrintable(error));
        QVERIFY(!error.contains(u'\n'));
    }

    void fragmentMatchesExactly_data()
    {
        TestDatabase::addEngineColumn();
        QTest::addColumn<QString>("search");
        QTest::addColumn<QStringList>("ids");
        const QList<std::pair<QString, QStringList>> cases = {
            {uR"({"orderId": 4711})"_qs, {u"P-1"_qs, u"P-5"_qs}},
            {uR"({"orderId": "4711"})"_qs, {u"P-3"_qs}},
            {uR"({"customer": {"id": 7}})"_qs, {u"P-1"_qs}},
            {uR"({"customer": {"tier": "gold", "id": 7}})"_qs, {u"P-1"_qs}},
            {uR"({"orderId": 4711, "customer": {"id": 8}})"_qs, {}},
            {uR"({"customer": {"id": 10}})"_qs, {}},
            {uR"({"tags": ["b"]})"_qs, {u"P-1"_qs}},
            {uR"({"tags": ["b", "c"]})"_qs, {}},
            {uR"([{"k": "v"}])"_qs, {u"P-4"_qs}},
            {uR"([2, 1])"_qs, {u"P-4"_qs}},
            {uR"({"missing": null})"_qs, {}},
        };
        for (const char *engine : {"sqlite", "postgresql", "mysql"}) {
            for (const auto &[search, ids] : cases)
                QTest::addRow("%s: %s", engine, qPrintable(search))
                    << QString::fromLatin1(engine) << search << ids;
        }
    }
    void fragmentMatchesExactly()
    {
        QFETCH(QString, engine);
        QFETCH(QString, search);
        QFETCH(QStringList, ids);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection && populate(connection->database()));
        QString error;
        QCOMPARE(PayloadSearch::parse(search, Redaction::defaultSensitiveKeys(), &error).kind,
            PayloadSearch::Kind::Fragment);
        EventFilter filter;
        filter.payloadContains = search;
        QCOMPARE(matching(connection->database(), filter), ids);
    }

    void plainTextIsALiteralSubstring_data()
    {
        TestDatabase::addEngineColumn();
        QTest::addColumn<QString>("search");
        QTest::addColumn<QStringList>("ids");
        const QList<std::pair<QString, QStringList>> cases = {
            {u"off_sale"_qs, {u"P-2"_qs}},
            {u"GOLD"_qs, {u"P-1"_qs}}, // case-insensitive
            {u"%"_qs, {u"P-2"_qs}}, // a wildcard only where the text holds one
            {u"_"_qs, {u"P-2"_qs}},
            {u"100%_off"_qs, {}},
            {u"\\"_qs, {}},
        };
        for (const char *engine : {"sqlite", "postgresql", "mysql"}) {
            for (const auto &[search, ids] : cases)
                QTest::addRow("%s: %s", engine, qPrintable(search))
                    << QString::fromLatin1(engine) << search << ids;
        }
    }
    void plainTextIsALiteralSubstring()
    {
        QFETCH(QString, engine);
        QFETCH(QString, search);
        QFETCH(QStringList, ids);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection && populate(connection->database()));
        QString error;
        // Allowed only with nothing redacted.
        QCOMPARE(PayloadSearch::parse(search, {}, &error).kind, PayloadSearch::Kind::Text);
        EventFilter filter;
        filter.payloadContains = search;
        QCOMPARE(matching(connection->database(), filter), ids);
    }

    // A payload that is not JSON: SQLite and MariaDB pass over it; PostgreSQL 15 has no safe
    // cast, so the search fails with the server's words (documented) instead of a wrong answer.
    void textThatIsNotJson_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void textThatIsNotJson()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection && populate(connection->database()));
        QVERIFY(exec(connection->database(),
            u"INSERT INTO delivery_outbox (event_id, aggregate_type, aggregate_id, event_type,"
            " payload, status, failures, next_attempt_at, created_at) VALUES ('P-9', 'Order', '9',"
            " 'T', 'orderId 4711, not JSON', 'DEAD', 3, 0, 100)"_qs));
        EventFilter filter;
        filter.payloadContains = uR"({"orderId": 4711})"_qs;
        const QStringList ids = matching(connection->database(), filter);
        if (engine == u"postgresql"_qs)
            QVERIFY2(ids.size() == 1 && ids.at(0).contains(u"json"_qs, Qt::CaseInsensitive),
                qPrintable(ids.join(u' ')));
        else
            QCOMPARE(ids, QStringList({u"P-1"_qs, u"P-5"_qs}));
    }

    void cliExportAndReplaySelectTheMatches_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void cliExportAndReplaySelectTheMatches()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const Run init = outboxctl({u"init"_qs, u"--db"_qs, database->url()});
        QCOMPARE(init.exitCode, 0);
        const auto connection = database->connect();
        QVERIFY(connection && populate(connection->database()));
        const QSqlDatabase db = connection->database();
        const QString url = database->url();
        const QString fragment = uR"({"orderId": 4711})"_qs;

        QTemporaryDir dir;
        const QString csv = dir.filePath(u"orders.csv"_qs);
        const Run exported = outboxctl({u"export"_qs, u"--db"_qs, url, u"--payload-contains"_qs,
            fragment, u"--output"_qs, csv});
        QCOMPARE(exported.err, QStringList());
        QCOMPARE(exported.exitCode, 0);
        QCOMPARE(exportedIds(csv), QStringList({u"P-1"_qs, u"P-5"_qs}));

        const QStringList before = statuses(db);
        const QStringList replay = {u"replay"_qs, u"--db"_qs, url, u"--all-dead"_qs,
            u"--operator"_qs, u"alice"_qs, u"--reason"_qs, u"order 4711 fixed"_qs, u"--now"_qs,
            u"10000"_qs, u"--payload-contains"_qs};
        // Refused, one line each, nothing changed.
        const QList<std::pair<QString, QString>> refused = {
            {uR"({"orderId": )"_qs,
                u"outboxctl: replay: --payload-contains: payload search is not valid JSON"_qs},
            {uR"({"password": "hunter2"})"_qs,
                u"outboxctl: replay: --payload-contains: payload search cannot name \"password\""_qs},
            {u"hunter2"_qs,
                u"outboxctl: replay: --payload-contains: plain-text payload search is off"_qs},
            {u"{\"k\": \""_qs + QString(100 * 1024, u'x') + u"\"}"_qs,
                u"outboxctl: replay: --payload-contains: payload search too long"_qs},
        };
        for (const auto &[search, why] : refused) {
            const Run run = outboxctl(replay + QStringList {search});
            QCOMPARE(run.exitCode, 2);
            QCOMPARE(run.err.size(), 1);
            QVERIFY2(run.err.at(0).startsWith(why), qPrintable(run.err.at(0)));
            QCOMPARE(statuses(db), before);
        }
        const Run badExport
            = outboxctl({u"export"_qs, u"--db"_qs, url, u"--payload-contains"_qs, uR"([1,)"_qs});
        QCOMPARE(badExport.exitCode, 2);
        QCOMPARE(badExport.err.size(), 1);
        QVERIFY(badExport.err.at(0).startsWith(
            u"outboxctl: export: --payload-contains: payload search is "
            "not valid JSON"_qs));

        // Only the DEAD event whose payload holds the order: P-1 (P-5 is PENDING).
        const Run replayed = outboxctl(replay + QStringList {fragment});
        QCOMPARE(replayed.err, QStringList());
        QCOMPARE(replayed.exitCode, 0);
        QCOMPARE(replayed.out, QStringList {u"replayed 1 event: P-1"_qs});
        QCOMPARE(statuses(db),
            QStringList({u"P-1 PENDING"_qs, u"P-2 DEAD"_qs, u"P-3 DEAD"_qs, u"P-4 DEAD"_qs,
                u"P-5 PENDING"_qs}));

        // With nothing redacted (the dashboard's list emptied), plain text searches too.
        writeSensitiveKeys(m_config.path(), u"[redaction]\nsensitiveKeys=@Invalid()\n"_qs);
        const Run text = outboxctl({u"export"_qs, u"--db"_qs, url, u"--payload-contains"_qs,
            u"off_sale"_qs, u"--output"_qs, csv});
        QCOMPARE(text.err, QStringList());
        QCOMPARE(exportedIds(csv), QStringList {u"P-2"_qs});
    }

    void profileWithoutPayloadRefuses_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void profileWithoutPayloadRefuses()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        auto connection = database->connect(false);
        QVERIFY(connection);
        QVERIFY(runSqlScript(connection->database(), TestData::path("fixtures/custom.sql")));
        QTemporaryDir dir;
        const QString path = dir.filePath(u"shop.profile"_qs);
        QVERIFY(writeProfileWithoutPayload(path));
        const QString why = u"payload search is not available: the profile maps no payload "
                            "column (profile shop)"_qs;
        const QString fragment = uR"({"order": 7})"_qs; // job 7 is DEAD: it would match

        // The CLI: exit 2, one line, no file written, no event replayed.
        const QString csv = dir.filePath(u"orders.csv"_qs);
        const Run exported = outboxctl({u"export"_qs, u"--db"_qs, database->url(), u"--profile"_qs,
            path, u"--payload-contains"_qs, fragment, u"--output"_qs, csv});
        QCOMPARE(exported.exitCode, 2);
        QCOMPARE(exported.err, QStringList {u"outboxctl: export: --payload-contains: "_qs + why});
        QVERIFY(!QFileInfo::exists(csv));
        const QStringList before = shopStates(connection->database());
        QCOMPARE(before.size(), 8);
        const Run replayed = outboxctl({u"replay"_qs, u"--db"_qs, database->url(), u"--profile"_qs,
            path, u"--all-dead"_qs, u"--payload-contains"_qs, fragment, u"--operator"_qs,
            u"alice"_qs, u"--reason"_qs, u"order 7 fixed"_qs, u"--now"_qs, u"1800000000000"_qs});
        QCOMPARE(replayed.exitCode, 2);
        QCOMPARE(replayed.err, QStringList {u"outboxctl: replay: --payload-contains: "_qs + why});
        QCOMPARE(shopStates(connection->database()), before);

        // The window: the field disabled with that line as its tooltip; a search set anyway
        // (a remembered filter) is not run: every event stays listed.
        QString error;
        WindowOptions options;
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        options.profile = ProfileParser::parse(QString::fromUtf8(file.readAll()), path, &error);
        QVERIFY2(options.profile, qPrintable(error));
        QVERIFY(!options.profile->isAvailable(OutboxProfile::Column::Payload));
        MainWindow window(std::move(connection), options);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_COMPARE(window.eventModel()->rowCount(), 8);
        auto *payload = window.findChild<QLineEdit *>(u"payloadFilter"_qs);
        QVERIFY(payload);
        QVERIFY(!payload->isEnabled());
        QCOMPARE(payload->toolTip(), why);
        EventFilter search;
        search.payloadContains = fragment;
        window.filterBar()->setFilter(search);
        QCOMPARE(window.filterBar()->filter().payloadContains, QString());
        QTRY_VERIFY(!window.eventModel()->isLoading());
        QCOMPARE(window.eventModel()->filter().payloadContains, QString());
        QCOMPARE(window.eventModel()->rowCount(), 8);
        QVERIFY(window.eventModel()->lastError().isEmpty());
    }

    void windowFilterShowsTheMatches_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void windowFilterShowsTheMatches()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        {
            const auto setup = database->initialise();
            QVERIFY(setup);
            QVERIFY(parkEvents(setup->database(), 6, [](int i) {
                return QStringLiteral(R"({"orderId": %1, "password": "pw-%2"})")
                    .arg(i % 2 ? 4711 : 4712)
                    .arg(i);
            }));
        }
        QThread *gui = QThread::currentThread();
        const int openBefore = DbConnection::openCountOn(gui);
        MainWindow window(database->connect(), {});
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_COMPARE(window.eventModel()->rowCount(), 7);
        auto *payload = window.findChild<QLineEdit *>(u"payloadFilter"_qs);
        auto *error = window.findChild<QLabel *>(u"payloadError"_qs);
        QVERIFY(payload && error);

        QTest::keyClicks(payload, uR"({"orderId": 4711})"_qs);
        QTRY_COMPARE(window.eventModel()->rowCount(), 3); // P-0001, P-0003, P-0005
        for (int row = 0; row < 3; ++row)
            QVERIFY(window.eventModel()->eventIdAt(row).mid(2).toInt() % 2 == 1);

        // A fragment that does not parse, or names a redacted key: said under the bar, and no
        // query runs (the filter is not emitted; the rows stay).
        QSignalSpy changed(window.findChild<FilterBar *>(), &FilterBar::filterChanged);
        const QList<std::pair<QString, QString>> bad
            = {{uR"({"orderId": )"_qs, u"not valid JSON"_qs},
                {uR"({"password": "pw-1"})"_qs, u"\"password\": its value is redacted"_qs},
                {u"pw-1"_qs, u"plain-text payload search is off"_qs}};
        for (const auto &[text, why] : bad) {
            payload->clear();
            QTest::keyClicks(payload, text);
            QTRY_VERIFY2(
                error->isVisible() && error->text().contains(why), qPrintable(error->text()));
        }
        QCOMPARE(changed.count(), 0);
        QCOMPARE(window.eventModel()->rowCount(), 3);
        // A 10 MB paste is cut at the field's bound, and what is left does not parse.
        payload->setText(u"{\"k\": \""_qs + QString(10 * 1024 * 1024, u'x') + u"\"}"_qs);
        QCOMPARE(payload->text().size(), PayloadSearch::MaxBytes);
        QTRY_VERIFY(error->text().contains(u"not valid JSON"_qs));
        QCOMPARE(changed.count(), 0);

        payload->clear();
        QTRY_COMPARE(window.eventModel()->rowCount(), 7);
        QVERIFY(!error->isVisible());
        QCOMPARE(DbConnection::openCountOn(gui) - openBefore, 0);
    }
};

OUTBOX_TEST_MAIN(TestPayloadSearch, QApplication)
#include "tst_payloadsearch.moc"
