// The fleet read through Prometheus (PrometheusFleetModel, FleetWindow::openPrometheus) with a
// real Prometheus (the Debian package's binary, on a free loopback port, a temporary TSDB)
// scraping real `outboxctl serve` processes over real outboxes (SQLite; PostgreSQL too): the rows
// hold the figures serve exports and the grades the database-read fleet view gives; an outbox the
// file names that Prometheus has no series for says "no data for outbox NAME"; a row with a URL
// opens its window, one without a read-only detail from Prometheus; an unreachable Prometheus, an
// HTTP error, an answer that is not JSON, one that never ends and one that never comes are each
// one clear line, within the bounds.
#include "fleetmodel.h"
#include "fleetproxy.h"
#include "fleetwindow.h"
#include "healthmonitor.h"
#include "outboxrows.h"
#include "prometheusdetaildialog.h"
#include "prometheusfleetmodel.h"
#include "prometheusrun.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QTableWidget>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>

namespace {

constexpr int ScrapeWaitMs = 60000; // serve's first read, Prometheus's start and first scrapes

// `dead` DEAD events and one due event an hour old.
bool populate(const QSqlDatabase &db, int dead)
{
    return insertDeadAndDue(db, dead, 7200000, 3600000);
}

// The value of serve's sample line `series`, empty when there is none.
QString sample(const QString &metrics, const QString &series)
{
    for (const QString &line : metrics.split(QLatin1Char('\n'))) {
        if (line.startsWith(series + QLatin1Char(' ')))
            return line.mid(series.size() + 1);
    }
    return {};
}

QString cell(const QAbstractItemModel &model, int row, int column, int role = Qt::DisplayRole)
{
    return model.index(row, column).data(role).toString();
}

// A server that answers every request with `answer` (then closes), or, when `endless`, with a
// body that never ends, or never answers at all when `answer` is empty.
class HostileServer : public QTcpServer
{
public:
    QByteArray answer;
    bool endless = false;
    int connections = 0;
    int hungUp = 0; // connections the client closed

protected:
    void incomingConnection(qintptr descriptor) override
    {
        auto *socket = new QTcpSocket(this);
        socket->setSocketDescriptor(descriptor);
        ++connections;
        connect(socket, &QTcpSocket::disconnected, this, [this] { ++hungUp; });
        connect(socket, &QTcpSocket::readyRead, socket, [this, socket] {
            socket->readAll();
            if (answer.isEmpty())
                return; // never answers
            socket->write(answer);
            if (!endless)
                socket->disconnectFromHost();
            else
                more(socket);
        });
        connect(socket, &QTcpSocket::bytesWritten, socket, [this, socket] {
            if (endless && socket->bytesToWrite() < 65536)
                more(socket);
        });
    }

private:
    void more(QTcpSocket *socket) { socket->write(QByteArray(65536, ' ')); }
};

} // namespace

class TestFleetPrometheus : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(u"prometheus"_qs).isEmpty())
            QFAIL("prometheus is missing (scripts/bootstrap installs the prometheus package)");
        QSettings().clear(); // the tiles' default thresholds, no muted outbox
    }

    void figuresEqualServe_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addRow("sqlite") << u"sqlite"_qs;
        QTest::addRow("postgresql") << u"postgresql"_qs;
    }

    // Two outboxes (5 DEAD and none) behind one serve, read once (--interval 1h), so the figures
    // Prometheus scrapes are the ones /metrics shows: the rows hold exactly those, graded as the
    // database-read fleet view grades them; a name the file has without series is "no data".
    void figuresEqualServe()
    {
        QFETCH(QString, engine);
        QString skip, fail;
        const auto red = TestDatabase::create(engine, &skip, &fail);
        const auto green = TestDatabase::create(engine, &skip, &fail);
        if (!fail.isEmpty())
            QFAIL(qPrintable(fail));
        if (!red || !green)
            QSKIP(qPrintable(skip));
        const auto redDb = red->initialise();
        const auto greenDb = green->initialise();
        QVERIFY(redDb && populate(redDb->database(), 5));
        QVERIFY(greenDb && populate(greenDb->database(), 0));
        Child serve;
        const int servePort = startServe(&serve,
            {u"--outbox"_qs, u"red="_qs + red->url(), u"--outbox"_qs, u"green="_qs + green->url(),
                u"--interval"_qs, u"3600"_qs});
        QVERIFY(servePort > 0);
        QTemporaryDir dir;
        Child prometheus;
        const QString url = startPrometheus(&prometheus, dir, {servePort}, {});
        QVERIFY2(!url.isEmpty(), prometheus.process.readAll().constData());

        PrometheusFleetModel model {QUrl(url)};
        QAbstractItemModelTester tester(&model);
        model.setExpected({u"red"_qs, u"ghost"_qs});
        model.setInterval(500);
        model.start();
        QTRY_VERIFY_WITH_TIMEOUT(model.rowOf(u"green"_qs) >= 0
                && cell(model, model.rowOf(u"red"_qs), FleetModel::StatusColumn) == u"up"_qs
                && cell(model, model.rowOf(u"green"_qs), FleetModel::StatusColumn) == u"up"_qs,
            ScrapeWaitMs);
        const QString metrics
            = QString::fromUtf8(httpGet(u"http://127.0.0.1:%1/metrics"_qs.arg(servePort)));
        for (const QString &name : {u"red"_qs, u"green"_qs}) {
            const std::optional<PrometheusOutbox> outbox = model.outboxAt(model.rowOf(name));
            QVERIFY(outbox && outbox->up);
            const HealthCounts &counts = outbox->snapshot.counts;
            const auto exported = [&](const QString &state) {
                return sample(
                    metrics, u"outbox_events{outbox=\"%1\",state=\"%2\"}"_qs.arg(name, state));
            };
            QCOMPARE(QString::number(counts.dead), exported(u"dead"_qs));
            QCOMPARE(QString::number(counts.due), exported(u"due"_qs));
            QCOMPARE(QString::number(counts.scheduled), exported(u"scheduled"_qs));
            QCOMPARE(QString::number(counts.delivered), exported(u"delivered"_qs));
            const double oldest
                = sample(metrics, u"outbox_oldest_pending_age_seconds{outbox=\"%1\"}"_qs.arg(name))
                      .toDouble();
            QCOMPARE(outbox->snapshot.oldestPendingAgeMs.value_or(-1), qRound64(oldest * 1000));
        }
        const int redRow = model.rowOf(u"red"_qs);
        QCOMPARE(cell(model, redRow, FleetModel::DeadColumn), u"5"_qs);
        QCOMPARE(model.stateAt(redRow), AlertDecider::State::Red);
        QCOMPARE(cell(model, model.rowOf(u"ghost"_qs), FleetModel::WorstColumn),
            u"no data for outbox ghost"_qs);
        QCOMPARE(
            model.index(model.rowOf(u"ghost"_qs), 0).data(FleetModel::SeverityRole).toInt(), 4);

        // The same rows as the fleet view that reads each database itself.
        FleetModel direct;
        direct.setLines({u"red="_qs + red->url(), u"green="_qs + green->url()});
        direct.start();
        QTRY_VERIFY_WITH_TIMEOUT(
            direct.monitorAt(0)->hasSnapshot() && direct.monitorAt(1)->hasSnapshot(), 30000);
        for (int row = 0; row < 2; ++row) {
            const int through = model.rowOf(direct.nameAt(row));
            for (int column : {int(FleetModel::WorstColumn), int(FleetModel::DueColumn),
                     int(FleetModel::DeadColumn), int(FleetModel::OldestPendingColumn)}) {
                QCOMPARE(cell(model, through, column), cell(direct, row, column));
                QCOMPARE(model.index(through, column).data(FleetModel::LevelRole),
                    direct.index(row, column).data(FleetModel::LevelRole));
            }
            QCOMPARE(model.index(through, 0).data(FleetModel::SeverityRole),
                direct.index(row, 0).data(FleetModel::SeverityRole));
        }

        // The last hours from Prometheus's history: the newest DEAD point is the count.
        // (Asked again until Prometheus's range query holds the newest scrapes.)
        const auto deadTrend = [&model, redRow] {
            return model.index(redRow, PrometheusFleetModel::DeadTrendColumn)
                .data(PrometheusFleetModel::TrendRole)
                .value<QList<double>>();
        };
        QTRY_VERIFY_WITH_TIMEOUT((model.refreshTrends(), !deadTrend().isEmpty()), 30000);
        QCOMPARE(deadTrend().constLast(), 5.0);
        QVERIFY(model.lastError().isEmpty());
    }

    // The window: a row whose name the file has opens the outbox's own window; one it has no URL
    // for, a read-only detail of Prometheus's series for it.
    void rowOpensWindowOrDetail()
    {
        QString skip, fail;
        const auto one = TestDatabase::create(u"sqlite"_qs, &skip, &fail);
        const auto two = TestDatabase::create(u"sqlite"_qs, &skip, &fail);
        QVERIFY2(one && two, qPrintable(fail));
        const auto oneDb = one->initialise();
        const auto twoDb = two->initialise();
        QVERIFY(oneDb && populate(oneDb->database(), 2) && twoDb && populate(twoDb->database(), 0));
        // serve's own fleet file may hold the window's prometheus= line: serve skips it.
        QTemporaryDir dir;
        const QString serveConfig = dir.filePath(u"serve.conf"_qs);
        QFile config(serveConfig);
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write((u"prometheus=http://127.0.0.1:9090\nknown="_qs + one->url() + u"\nremote="_qs
            + two->url() + u'\n')
                         .toUtf8());
        config.close();
        Child serve;
        const int servePort = startServe(&serve, {u"--config"_qs, serveConfig});
        QVERIFY(servePort > 0);
        Child prometheus;
        const QString url = startPrometheus(&prometheus, dir, {servePort}, {});
        QVERIFY(!url.isEmpty());
        // The file: a URL for `known` only, and the Prometheus to read.
        const QString path = dir.filePath(u"fleet.conf"_qs);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write((u"prometheus="_qs + url + u"\nknown="_qs + one->url() + u'\n').toUtf8());
        file.close();

        FleetWindow window;
        QSignalSpy opened(&window, &FleetWindow::opened);
        window.openFile(path);
        QVERIFY(opened.wait(10000));
        PrometheusFleetModel *model = window.prometheusModel();
        QVERIFY(model);
        // Read again every half second, not every 15 s: the first read may come before
        // Prometheus's first scrape of serve.
        model->setInterval(500);
        QCOMPARE(window.model()->monitorAt(0), nullptr); // no database connection of its own
        QTRY_VERIFY_WITH_TIMEOUT(model->rowOf(u"remote"_qs) >= 0
                && cell(*model, model->rowOf(u"known"_qs), FleetModel::StatusColumn) == u"up"_qs,
            ScrapeWaitMs);
        QTRY_VERIFY(window.summary().contains(u"read through Prometheus"_qs));
        // Worst first: `known` (2 DEAD, red) above `remote` (healthy).
        QCOMPARE(cell(*window.proxy(), 0, FleetModel::NameColumn), u"known"_qs);

        QSignalSpy openRequested(&window, &FleetWindow::outboxOpenRequested);
        window.openRow(0);
        QCOMPARE(openRequested.size(), 1);
        QCOMPARE(window.model()->nameAt(openRequested.at(0).at(0).toInt()), u"known"_qs);

        window.openRow(1);
        PrometheusDetailDialog *detail = window.detailDialog();
        QVERIFY(detail);
        QTRY_VERIFY(detail->table()->rowCount() > 0);
        const QList<QTableWidgetItem *> up
            = detail->table()->findItems(u"outbox_up"_qs, Qt::MatchExactly);
        QCOMPARE(up.size(), 1);
        QCOMPARE(detail->table()->item(up.first()->row(), 2)->text(), u"1"_qs);
    }

    // Nothing listens: one line naming Prometheus's URL; the rows the file names stay unknown.
    void unreachablePrometheus()
    {
        const QString url = u"http://127.0.0.1:"_qs + QString::number(freePort());
        PrometheusFleetModel model {QUrl(url)};
        model.setExpected({u"shop"_qs});
        QSignalSpy failed(&model, &PrometheusFleetModel::failed);
        model.start();
        QVERIFY(failed.wait(15000));
        QVERIFY2(model.lastError().startsWith(u"cannot reach Prometheus at "_qs + url + u": "_qs),
            qPrintable(model.lastError()));
        QCOMPARE(cell(model, 0, FleetModel::StatusColumn), u"unknown"_qs);
        QCOMPARE(model.stateAt(0), AlertDecider::State::Unknown); // no alert for every outbox

        FleetWindow window;
        QSignalSpy refused(&window, &FleetWindow::openFailed);
        window.openPrometheus(u"postgresql://db/shop"_qs);
        QVERIFY(refused.wait(5000));
        QVERIFY(refused.at(0).at(0).toString().startsWith(u"not a Prometheus URL"_qs));
    }

    // The command line: a URL that is not Prometheus's, or beside --db, exits 2 in one line.
    void commandLine_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("error");
        QTest::addRow("not http") << QStringList {u"--fleet-prometheus"_qs, u"ftp://prom/"_qs}
                                  << u"outbox-dashboard: not a Prometheus URL"_qs;
        QTest::addRow("beside --db")
            << QStringList {u"--fleet-prometheus"_qs, u"http://prom:9090"_qs, u"--db"_qs,
                   u"sqlite:/nonexistent.sqlite"_qs}
            << u"--fleet and --fleet-prometheus exclude --db and --demo"_qs;
    }

    void commandLine()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, error);
        QProcess dashboard;
        dashboard.start(qEnvironmentVariable("OUTBOX_DASHBOARD"), arguments);
        QVERIFY(dashboard.waitForFinished(30000));
        QCOMPARE(dashboard.exitCode(), 2);
        const QString err = QString::fromUtf8(dashboard.readAllStandardError());
        QVERIFY2(err.contains(error), qPrintable(err));
    }

    void hostileAnswers_data()
    {
        QTest::addColumn<QByteArray>("answer");
        QTest::addColumn<bool>("endless");
        QTest::addColumn<QString>("error");
        QTest::addRow("HTTP 503") << QByteArray("HTTP/1.1 503 Service Unavailable\r\n"
                                                "Content-Length: 12\r\n\r\nno TSDB yet\n")
                                  << false << u"answered HTTP 503: no TSDB yet"_qs;
        QTest::addRow("Prometheus's own 400")
            << QByteArray("HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\n"
                          "Content-Length: 58\r\n\r\n"
                          "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"parse\"}\n")
            << false << u"answered HTTP 400: parse"_qs;
        QTest::addRow("not JSON") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 15\r\n\r\n"
                                                "<html>hi</html>")
                                  << false << u"not a Prometheus API answer"_qs;
        QTest::addRow("endless body") << QByteArray("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n")
                                      << true << u"answered more than 1 MiB; not read"_qs;
        QTest::addRow("no answer") << QByteArray() << false << u"did not answer within 1 s"_qs;
    }

    // Each is one line, soon: a body that never ends is cut at the bound, not buffered.
    void hostileAnswers()
    {
        QFETCH(QByteArray, answer);
        QFETCH(bool, endless);
        QFETCH(QString, error);
        HostileServer server;
        server.answer = answer;
        server.endless = endless;
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        PrometheusFleetModel model {
            QUrl(u"http://127.0.0.1:"_qs + QString::number(server.serverPort()))};
        model.setMaxResponseBytes(1024 * 1024);
        model.setTimeoutMs(1000);
        QSignalSpy failed(&model, &PrometheusFleetModel::failed);
        QElapsedTimer timer;
        timer.start();
        model.start();
        QVERIFY(failed.wait(15000));
        QVERIFY2(model.lastError().contains(error), qPrintable(model.lastError()));
        QVERIFY(timer.elapsed() < 10000);
        // The client hung up on the endless body (it read about the bound, the kernel's buffers
        // the rest), rather than reading on.
        if (endless)
            QTRY_COMPARE_WITH_TIMEOUT(server.hungUp, server.connections, 5000);
    }
};

OUTBOX_TEST_MAIN(TestFleetPrometheus, QApplication)

#include "tst_fleet_prometheus.moc"
