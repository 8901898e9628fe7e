// The shipped Alertmanager configuration (resources/prometheus/alertmanager.yml): `amtool
// check-config` accepts it; and with a real Alertmanager (Debian's prometheus-alertmanager) and
// a real Prometheus loading the shipped rules, scraping a real `outboxctl serve` over a real
// outbox, the alert reaches the test's webhook receiver (a QTcpServer) with its `dashboard` link,
// a silence (amtool) holds it while the other alert keeps being repeated, and the resolved
// notification arrives once the outbox heals. The change-data-capture alerts route by their
// severity, and an inactive slot holds its lag alert (and a slot at risk its forecast) for that
// outbox and slot only. The copies the servers load differ from the shipped files only in the
// webhook's URL and in minutes cut to a second (checked below).
#include "outboxrows.h"
#include "prometheusrun.h"
#include "testdata.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>
#include <QTcpSocket>

namespace {

constexpr int AlertWaitMs = 90000; // serve, Prometheus's rules, Alertmanager's group wait

// An HTTP receiver of Alertmanager's webhook: every POST body, parsed, answered 200.
class WebhookReceiver : public QTcpServer
{
public:
    QList<QJsonObject> notifications;

    // Notifications of `alertname` for `outbox` with `status` ("firing", "resolved"), from
    // index `from` on.
    int count(const QString &alertname, const QString &status, qsizetype from = 0) const
    {
        int n = 0;
        for (qsizetype i = from; i < notifications.size(); ++i) {
            for (const QJsonValue &alert : notifications.at(i).value(u"alerts").toArray()) {
                const QJsonObject a = alert.toObject();
                n += a.value(u"labels").toObject().value(u"alertname").toString() == alertname
                    && a.value(u"status").toString() == status;
            }
        }
        return n;
    }
    QJsonObject firstAlert(const QString &alertname) const
    {
        for (const QJsonObject &notification : notifications) {
            for (const QJsonValue &alert : notification.value(u"alerts").toArray()) {
                if (alert.toObject().value(u"labels").toObject().value(u"alertname").toString()
                    == alertname)
                    return alert.toObject();
            }
        }
        return {};
    }

protected:
    void incomingConnection(qintptr descriptor) override
    {
        auto *socket = new QTcpSocket(this);
        socket->setSocketDescriptor(descriptor);
        auto buffer = std::make_shared<QByteArray>();
        connect(socket, &QTcpSocket::readyRead, socket, [this, socket, buffer] {
            *buffer += socket->readAll();
            while (take(buffer.get()))
                socket->write("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        });
    }

private:
    // One whole request out of `buffer`, its body kept; false until one is there.
    bool take(QByteArray *buffer)
    {
        const qsizetype headEnd = buffer->indexOf("\r\n\r\n");
        if (headEnd < 0)
            return false;
        const QRegularExpression length(u"(?i)content-length:\\s*(\\d+)"_qs);
        const QRegularExpressionMatch match
            = length.match(QString::fromLatin1(buffer->left(headEnd)));
        const qsizetype size = match.hasMatch() ? match.captured(1).toLongLong() : 0;
        if (buffer->size() < headEnd + 4 + size)
            return false;
        notifications.append(QJsonDocument::fromJson(buffer->mid(headEnd + 4, size)).object());
        buffer->remove(0, headEnd + 4 + size);
        return true;
    }
};

// `dead` DEAD events and a due event an hour old (OutboxOldestPendingTooOld fires too).
bool populate(const QSqlDatabase &db, int dead)
{
    return insertDeadAndDue(db, dead, 7200000, 3600000);
}

QString readSource(const QString &relative)
{
    QFile file(TestData::sourceDir() + u'/' + relative);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

bool writeFile(const QString &path, const QString &text)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(text.toUtf8()) >= 0;
}

struct Run
{
    int exitCode = -1;
    QString out;
};

Run run(const QString &program, const QStringList &arguments)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(QStandardPaths::findExecutable(program), arguments);
    if (!process.waitForFinished(30000))
        return {};
    return {process.exitCode(), QString::fromUtf8(process.readAll())};
}

// Alertmanager's state of the alerts named `alertname` ("active", "suppressed"), of `outbox`
// if given, or empty.
QString alertState(const QString &amUrl, const QString &alertname, const QString &outbox = {})
{
    const QJsonArray alerts
        = QJsonDocument::fromJson(httpGet(amUrl + u"/api/v2/alerts"_qs)).array();
    for (const QJsonValue &alert : alerts) {
        const QJsonObject labels = alert.toObject().value(u"labels").toObject();
        if (labels.value(u"alertname").toString() == alertname
            && (outbox.isEmpty() || labels.value(u"outbox").toString() == outbox))
            return alert.toObject().value(u"status").toObject().value(u"state").toString();
    }
    return {};
}

// `amtool alert add` of a CDC alert of `outbox`'s slot `slot`, as Prometheus would send it.
bool addAlert(const QString &amUrl, const QString &alertname, const QString &severity,
    const QString &outbox, const QString &slot)
{
    return run(u"amtool"_qs,
               {u"alert"_qs, u"add"_qs, u"--alertmanager.url="_qs + amUrl,
                   u"alertname="_qs + alertname, u"severity="_qs + severity, u"outbox="_qs + outbox,
                   u"slot="_qs + slot})
               .exitCode
        == 0;
}

} // namespace

class TestAlertmanager : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        for (const char *program : {"amtool", "prometheus-alertmanager", "prometheus"}) {
            if (QStandardPaths::findExecutable(QString::fromLatin1(program)).isEmpty())
                QFAIL(qPrintable(u"%1 is missing (scripts/bootstrap installs the "
                                 "prometheus-alertmanager and prometheus packages)"_qs.arg(
                                     QString::fromLatin1(program))));
        }
    }

    void shippedConfigChecks()
    {
        const Run check = run(u"amtool"_qs,
            {u"check-config"_qs,
                TestData::sourceDir() + u"/resources/prometheus/alertmanager.yml"_qs});
        QVERIFY2(check.exitCode == 0 && check.out.contains(u"SUCCESS"_qs), qPrintable(check.out));
        QVERIFY2(check.out.contains(u"3 inhibit rules"_qs), qPrintable(check.out));
    }

    void cdcAlertsRouteBySeverity_data()
    {
        QTest::addColumn<QString>("alertname");
        QTest::addColumn<QString>("severity");
        QTest::addColumn<QString>("receiver");
        QTest::addRow("inactive slot: on call")
            << u"OutboxCdcSlotInactive"_qs << u"critical"_qs << u"outbox-oncall"_qs;
        QTest::addRow("missing slot: on call")
            << u"OutboxCdcSlotMissing"_qs << u"critical"_qs << u"outbox-oncall"_qs;
        QTest::addRow("WAL at risk: on call")
            << u"OutboxCdcWalAtRisk"_qs << u"critical"_qs << u"outbox-oncall"_qs;
        QTest::addRow("lag: the team")
            << u"OutboxCdcLagHigh"_qs << u"warning"_qs << u"outbox-team"_qs;
        QTest::addRow("limit soon: the team")
            << u"OutboxCdcWalLimitSoon"_qs << u"warning"_qs << u"outbox-team"_qs;
    }

    // The severity each rule gives its alert (outbox-alerts.yml) and the receiver it reaches.
    void cdcAlertsRouteBySeverity()
    {
        QFETCH(QString, alertname);
        QFETCH(QString, severity);
        QFETCH(QString, receiver);
        const QString rules = readSource(u"resources/prometheus/outbox-alerts.yml"_qs);
        const QRegularExpression rule(
            u"- alert: %1\\n(?:[^\\n]*\\n){0,8}?\\s+severity: (\\w+)"_qs.arg(alertname));
        QCOMPARE(rule.match(rules).captured(1), severity);
        const Run route = run(u"amtool"_qs,
            {u"config"_qs, u"routes"_qs, u"test"_qs,
                u"--config.file="_qs + TestData::sourceDir()
                    + u"/resources/prometheus/alertmanager.yml"_qs,
                u"alertname="_qs + alertname, u"severity="_qs + severity, u"outbox=shop"_qs,
                u"slot=dbz"_qs});
        QCOMPARE(route.out.split(u'\n').filter(u"outbox-"_qs).value(0).trimmed(), receiver);
    }

    // A real Alertmanager on the shipped configuration: while shop's slot is inactive, its lag
    // alert is held; billing's lag alert (its slot active) is not; a slot at risk holds the
    // forecast that it will be.
    void cdcInhibition()
    {
        WebhookReceiver webhook;
        QVERIFY(webhook.listen(QHostAddress::LocalHost, 0));
        QTemporaryDir dir;
        Child alertmanager;
        const QString amUrl = startAlertmanager(&alertmanager, dir, webhook.serverPort());
        QVERIFY(!amUrl.isEmpty());
        QVERIFY(addAlert(amUrl, u"OutboxCdcLagHigh"_qs, u"warning"_qs, u"shop"_qs, u"dbz"_qs));
        QVERIFY(addAlert(amUrl, u"OutboxCdcLagHigh"_qs, u"warning"_qs, u"billing"_qs, u"dbz"_qs));
        QVERIFY(addAlert(amUrl, u"OutboxCdcWalLimitSoon"_qs, u"warning"_qs, u"shop"_qs, u"dbz"_qs));
        QTRY_COMPARE_WITH_TIMEOUT(
            alertState(amUrl, u"OutboxCdcLagHigh"_qs, u"shop"_qs), u"active"_qs, 20000);
        QVERIFY(
            addAlert(amUrl, u"OutboxCdcSlotInactive"_qs, u"critical"_qs, u"shop"_qs, u"dbz"_qs));
        QVERIFY(addAlert(amUrl, u"OutboxCdcWalAtRisk"_qs, u"critical"_qs, u"shop"_qs, u"dbz"_qs));
        QTRY_COMPARE_WITH_TIMEOUT(
            alertState(amUrl, u"OutboxCdcLagHigh"_qs, u"shop"_qs), u"suppressed"_qs, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(
            alertState(amUrl, u"OutboxCdcWalLimitSoon"_qs, u"shop"_qs), u"suppressed"_qs, 20000);
        QCOMPARE(alertState(amUrl, u"OutboxCdcLagHigh"_qs, u"billing"_qs), u"active"_qs);
        QCOMPARE(alertState(amUrl, u"OutboxCdcSlotInactive"_qs, u"shop"_qs), u"active"_qs);
        QTRY_VERIFY_WITH_TIMEOUT(
            webhook.count(u"OutboxCdcSlotInactive"_qs, u"firing"_qs) > 0, 20000);
    }

    void alertReachesWebhookSilencedThenResolved()
    {
        QString skip, fail;
        const auto outbox = TestDatabase::create(u"sqlite"_qs, &skip, &fail);
        QVERIFY2(outbox, qPrintable(fail));
        const auto db = outbox->initialise();
        QVERIFY(db && populate(db->database(), 3));
        Child serve;
        const int servePort = startServe(&serve,
            {u"--outbox"_qs, u"shop="_qs + outbox->url(), u"--interval"_qs, u"1"_qs,
                u"--expose-db-url"_qs});
        QVERIFY(servePort > 0);
        WebhookReceiver webhook;
        QVERIFY(webhook.listen(QHostAddress::LocalHost, 0));
        QTemporaryDir dir;
        const QString amUrl = startAlertmanager(&m_alertmanager, dir, webhook.serverPort());
        QVERIFY(!amUrl.isEmpty());
        Child prometheus;
        const QString rules = dir.filePath(u"outbox-alerts.yml"_qs);
        QVERIFY(writeRules(rules));
        const QString promUrl = startPrometheus(&prometheus, dir, {servePort},
            u"rule_files: ['%1']\nalerting:\n  alertmanagers:\n    - static_configs:\n"
            "        - targets: ['%2']\n"_qs.arg(rules, QUrl(amUrl).authority()));
        QVERIFY2(!promUrl.isEmpty(), prometheus.process.readAll().constData());

        // The alert, with the link that opens the dashboard on the outbox's DEAD events.
        QTRY_VERIFY_WITH_TIMEOUT(
            webhook.count(u"OutboxDeadEvents"_qs, u"firing"_qs) > 0, AlertWaitMs);
        const QJsonObject alert = webhook.firstAlert(u"OutboxDeadEvents"_qs);
        QCOMPARE(alert.value(u"labels").toObject().value(u"outbox").toString(), u"shop"_qs);
        const QString link = alert.value(u"annotations").toObject().value(u"dashboard").toString();
        QVERIFY2(
            link.startsWith(u"outbox-health:open?db=sqlite"_qs) && link.endsWith(u"state=dead"_qs),
            qPrintable(link));

        // A silence holds it: suppressed, and while the other alert of the outbox is repeated
        // twice more, no notification of it.
        const Run silence = run(u"amtool"_qs,
            {u"silence"_qs, u"add"_qs, u"--alertmanager.url="_qs + amUrl, u"--author=test"_qs,
                u"--comment=known, fix deploying"_qs, u"--duration=1h"_qs,
                u"alertname=OutboxDeadEvents"_qs, u"outbox=shop"_qs});
        QVERIFY2(silence.exitCode == 0, qPrintable(silence.out));
        const QString silenceId = silence.out.trimmed();
        QTRY_COMPARE_WITH_TIMEOUT(
            alertState(amUrl, u"OutboxDeadEvents"_qs), u"suppressed"_qs, 20000);
        const qsizetype silenced = webhook.notifications.size();
        QTRY_VERIFY_WITH_TIMEOUT(
            webhook.count(u"OutboxOldestPendingTooOld"_qs, u"firing"_qs, silenced) >= 2, 30000);
        QCOMPARE(webhook.count(u"OutboxDeadEvents"_qs, u"firing"_qs, silenced), 0);

        // The silence ends and the outbox heals: the resolved notification arrives.
        const Run expire = run(u"amtool"_qs,
            {u"silence"_qs, u"expire"_qs, u"--alertmanager.url="_qs + amUrl, silenceId});
        QVERIFY2(expire.exitCode == 0, qPrintable(expire.out));
        QSqlQuery heal(db->database());
        QVERIFY(heal.exec(u"UPDATE delivery_outbox SET status = 'DELIVERED', delivered_at = "
                          "created_at WHERE status = 'DEAD'"_qs));
        QTRY_VERIFY_WITH_TIMEOUT(
            webhook.count(u"OutboxDeadEvents"_qs, u"resolved"_qs, silenced) > 0, AlertWaitMs);
    }

private:
    // The shipped rules, their `for:` minutes cut to a second (nothing else differs).
    static bool writeRules(const QString &path)
    {
        QString rules = readSource(u"resources/prometheus/outbox-alerts.yml"_qs);
        const qsizetype fors = rules.count(QRegularExpression(u"for: \\d+m"_qs));
        rules.replace(QRegularExpression(u"for: \\d+m"_qs), u"for: 1s"_qs);
        return fors >= 5 && writeFile(path, rules);
    }

    // The shipped configuration, its webhooks pointed at `port` and its waits cut to a second;
    // a real Alertmanager on it (no cluster). Its URL once ready, else empty.
    static QString startAlertmanager(Child *alertmanager, const QTemporaryDir &dir, int port)
    {
        QString config = readSource(u"resources/prometheus/alertmanager.yml"_qs);
        const QString shipped = u"http://127.0.0.1:5001/outbox-alerts"_qs;
        if (config.count(shipped) != 2)
            return {};
        config.replace(shipped, u"http://127.0.0.1:%1/outbox-alerts"_qs.arg(port));
        config.replace(QRegularExpression(u"(group_wait|group_interval|repeat_interval): \\w+"_qs),
            u"\\1: 1s"_qs);
        const QString path = dir.filePath(u"alertmanager.yml"_qs);
        if (!writeFile(path, config))
            return {};
        const QString url = u"http://127.0.0.1:"_qs + QString::number(freePort());
        alertmanager->process.setProcessChannelMode(QProcess::MergedChannels);
        alertmanager->process.start(QStandardPaths::findExecutable(u"prometheus-alertmanager"_qs),
            {u"--config.file="_qs + path, u"--storage.path="_qs + dir.filePath(u"am"_qs),
                u"--web.listen-address="_qs + QUrl(url).authority(),
                u"--cluster.listen-address="_qs, u"--log.level=warn"_qs});
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < 30000 && alertmanager->process.state() != QProcess::NotRunning) {
            if (httpGet(url + u"/-/ready"_qs).startsWith("OK"))
                return url;
            QTest::qWait(200); // polling a process that answers no signal we could wait on
        }
        return {};
    }

    Child m_alertmanager;
};

OUTBOX_TEST_MAIN(TestAlertmanager, QCoreApplication)

#include "tst_alertmanager.moc"
