// The shipped Grafana dashboard (resources/grafana/outbox-health.json) and alert rules ask only
// for metrics that outboxctl emits: every metric name in their expressions is a family that
// `outboxctl metrics` prints for a known outbox (the outbox_cdc_* ones: tst_cdc_prometheus). The
// dashboard imports anywhere: a Prometheus `datasource` variable that every panel and query
// uses, an `outbox` variable from label_values(outbox_up, outbox) that every query filters by,
// unique panel ids; and every expression parses (`promtool check rules` on them as recording
// rules).
#include "outboxctlrun.h"
#include "testdata.h"
#include "outboxrows.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>

namespace {

const QString Source = TestData::sourceDir();

QJsonObject readJson(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &error);
    if (error.error != QJsonParseError::NoError)
        qWarning("%s: %s", qPrintable(path), qPrintable(error.errorString()));
    return document.object();
}

// Every query of every panel: (panel title, expression).
QList<std::pair<QString, QString>> expressions(const QJsonObject &dashboard)
{
    QList<std::pair<QString, QString>> all;
    for (const QJsonValue &panel : dashboard.value(u"panels"_qs).toArray()) {
        for (const QJsonValue &target : panel[u"targets"_qs].toArray())
            all.append({panel[u"title"_qs].toString(), target[u"expr"_qs].toString()});
    }
    return all;
}

QSet<QString> metricNames(const QString &expression)
{
    static const QRegularExpression name(u"\\boutbox_[a-z_]+\\b"_qs);
    QSet<QString> names;
    for (const QRegularExpressionMatch &match : name.globalMatch(expression))
        names << match.captured();
    return names;
}

// The families `outboxctl metrics` prints for an outbox with DEAD, failed, PENDING and
// delivered events.
QSet<QString> emittedFamilies(QString *error)
{
    QString skip, fail;
    const auto database = TestDatabase::create(u"sqlite"_qs, &skip, &fail);
    const auto connection = database ? database->initialise() : nullptr;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    OutboxRow dead;
    dead.id = u"D-1"_qs;
    dead.status = u"DEAD"_qs;
    dead.failures = 3;
    dead.category = u"PERMANENT"_qs;
    dead.error = u"HTTP 400"_qs;
    dead.createdAt = dead.nextAttemptAt = now - 3600000;
    OutboxRow pending;
    pending.id = u"P-1"_qs;
    pending.createdAt = pending.nextAttemptAt = now - 60000;
    OutboxRow delivered;
    delivered.id = u"OK-1"_qs;
    delivered.status = u"DELIVERED"_qs;
    delivered.createdAt = delivered.nextAttemptAt = now - 20000;
    delivered.deliveredAt = now - 10000;
    if (!connection || !insertRow(connection->database(), dead)
        || !insertRow(connection->database(), pending)
        || !insertRow(connection->database(), delivered)) {
        *error = u"cannot make the fixture"_qs;
        return {};
    }
    const Run run
        = outboxctl({u"metrics"_qs, u"--db"_qs, database->url(), u"--outbox"_qs, u"shop"_qs});
    if (run.exitCode != 0) {
        *error = run.err.join(u"\n"_qs);
        return {};
    }
    QSet<QString> families;
    for (const QString &line : run.out) {
        if (line.startsWith(u"# TYPE "_qs))
            families << line.section(QLatin1Char(' '), 2, 2);
    }
    return families;
}

// A family of a change-data-capture slot (outbox_cdc_*, docs/cdc.md): printed only for an
// outbox with a replication slot, which this SQLite fixture cannot have; tst_cdc_prometheus
// holds every such name the rules and the dashboard use to what serve emits for a real slot.
bool isCdcFamily(const QString &name)
{
    return name.startsWith(u"outbox_cdc_"_qs);
}

// The name as a family: a histogram's series carry _bucket, _count or _sum.
bool isEmitted(const QString &name, const QSet<QString> &families)
{
    if (families.contains(name))
        return true;
    for (const QString &suffix : {u"_bucket"_qs, u"_count"_qs, u"_sum"_qs}) {
        if (name.endsWith(suffix) && families.contains(name.chopped(suffix.size())))
            return true;
    }
    return false;
}

} // namespace

class TestGrafanaDashboard : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        m_dashboard = readJson(Source + u"/resources/grafana/outbox-health.json"_qs);
        QVERIFY2(!m_dashboard.isEmpty(), "outbox-health.json is missing or not JSON");
        QString error;
        m_families = emittedFamilies(&error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        // The fixture shows every family of a readable outbox.
        for (const QString &family : {u"outbox_up"_qs, u"outbox_events"_qs,
                 u"outbox_pending_age_seconds"_qs, u"outbox_error_events"_qs,
                 u"outbox_delivery_latency_seconds"_qs, u"outbox_delivered_last_hour"_qs})
            QVERIFY2(m_families.contains(family), qPrintable(family));
    }

    void dashboardMetricsAreEmitted()
    {
        const auto all = expressions(m_dashboard);
        QVERIFY(all.size() >= 10);
        QSet<QString> used;
        for (const auto &[title, expression] : all) {
            const QSet<QString> names = metricNames(expression);
            QVERIFY2(!names.isEmpty(), qPrintable(title + u": "_qs + expression));
            for (const QString &name : names) {
                QVERIFY2(isEmitted(name, m_families) || isCdcFamily(name),
                    qPrintable(title + u" uses "_qs + name + u", which outboxctl never emits"_qs));
                used << name;
            }
        }
        // What the issue asks the dashboard to show.
        for (const QString &name :
            {u"outbox_up"_qs, u"outbox_events"_qs, u"outbox_oldest_pending_age_seconds"_qs,
                u"outbox_pending_age_seconds_bucket"_qs, u"outbox_error_events"_qs,
                u"outbox_delivery_latency_seconds"_qs, u"outbox_delivered_last_hour"_qs})
            QVERIFY2(used.contains(name), qPrintable(name));
    }

    void alertRuleMetricsAreEmitted()
    {
        QFile rules(Source + u"/resources/prometheus/outbox-alerts.yml"_qs);
        QVERIFY(rules.open(QIODevice::ReadOnly));
        QSet<QString> names;
        for (const QByteArray &line : rules.readAll().split('\n')) {
            if (!line.trimmed().startsWith('#') && !line.contains("summary:")
                && !line.contains("description:"))
                names += metricNames(QString::fromUtf8(line));
        }
        QVERIFY(names.contains(u"outbox_up"_qs));
        QVERIFY(names.contains(u"outbox_cdc_slot_active"_qs));
        for (const QString &name : std::as_const(names))
            QVERIFY2(isEmitted(name, m_families) || isCdcFamily(name), qPrintable(name));
    }

    void variables()
    {
        QCOMPARE(m_dashboard[u"schemaVersion"_qs].toInt(), 38);
        const QJsonArray list = m_dashboard[u"templating"_qs][u"list"_qs].toArray();
        QJsonObject datasource, outbox;
        for (const QJsonValue &variable : list) {
            if (variable[u"name"_qs] == u"datasource"_qs)
                datasource = variable.toObject();
            if (variable[u"name"_qs] == u"outbox"_qs)
                outbox = variable.toObject();
        }
        QCOMPARE(datasource[u"type"_qs].toString(), u"datasource"_qs);
        QCOMPARE(datasource[u"query"_qs].toString(), u"prometheus"_qs);
        QCOMPARE(outbox[u"type"_qs].toString(), u"query"_qs);
        QCOMPARE(outbox[u"definition"_qs].toString(), u"label_values(outbox_up, outbox)"_qs);
        QCOMPARE(
            outbox[u"query"_qs][u"query"_qs].toString(), u"label_values(outbox_up, outbox)"_qs);
        QCOMPARE(outbox[u"datasource"_qs][u"uid"_qs].toString(), u"${datasource}"_qs);
        QVERIFY(outbox[u"multi"_qs].toBool() && outbox[u"includeAll"_qs].toBool());
    }

    void everyPanelUsesTheVariables()
    {
        QSet<int> ids;
        for (const QJsonValue &panel : m_dashboard[u"panels"_qs].toArray()) {
            const QString title = panel[u"title"_qs].toString();
            QVERIFY2(!ids.contains(panel[u"id"_qs].toInt()), qPrintable(title));
            ids << panel[u"id"_qs].toInt();
            QCOMPARE(panel[u"datasource"_qs][u"uid"_qs].toString(), u"${datasource}"_qs);
            const QJsonArray targets = panel[u"targets"_qs].toArray();
            QVERIFY2(!targets.isEmpty(), qPrintable(title));
            for (const QJsonValue &target : targets) {
                QCOMPARE(target[u"datasource"_qs][u"uid"_qs].toString(), u"${datasource}"_qs);
                QVERIFY2(target[u"expr"_qs].toString().contains(u"outbox=~\"$outbox\""_qs),
                    qPrintable(title));
            }
        }
    }

    // Each expression, with the variables filled in, is valid PromQL.
    void expressionsParse()
    {
        const QString promtool = QStandardPaths::findExecutable(u"promtool"_qs);
        if (promtool.isEmpty()) {
            if (qEnvironmentVariable("CI") == u"true"_qs)
                QFAIL("promtool is missing (scripts/bootstrap installs the prometheus package)");
            QSKIP("promtool is missing: run scripts/bootstrap");
        }
        QString rules = u"groups:\n  - name: dashboard\n    rules:\n"_qs;
        int i = 0;
        for (const auto &[title, expression] : expressions(m_dashboard)) {
            QString expr = expression;
            expr.replace(u"$outbox"_qs, u".*"_qs);
            rules += QStringLiteral("      - record: dashboard:query_%1\n        expr: '%2'\n")
                         .arg(++i)
                         .arg(expr.replace(u"'"_qs, u"''"_qs));
        }
        QTemporaryDir dir;
        QFile file(dir.filePath(u"dashboard.yml"_qs));
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write(rules.toUtf8()) > 0);
        file.close();
        QProcess process;
        process.start(promtool, {u"check"_qs, u"rules"_qs, file.fileName()});
        QVERIFY(process.waitForFinished(60000));
        QVERIFY2(process.exitCode() == 0,
            qPrintable(QString::fromUtf8(
                process.readAllStandardOutput() + process.readAllStandardError())));
    }

private:
    QJsonObject m_dashboard;
    QSet<QString> m_families;
};

OUTBOX_TEST_MAIN(TestGrafanaDashboard, QCoreApplication)
#include "tst_grafana_dashboard.moc"
