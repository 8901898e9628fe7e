// `outboxctl policy` as an operator runs it: the exact schedule of every deterministic kind
// (the seed's 10, 20, 40, 40 and Spring Retry's defaults, 100 ms doubling up to 30 s), the bounds
// a jittered kind stays in and the same figures for the same seed, the text table, and exit 2
// with one line naming the cause for a malformed spec or a wrong argument.
#include "outboxctlrun.h"
#include "testmain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace {

QJsonObject jsonOf(const Run &run)
{
    return run.out.size() == 1 ? QJsonDocument::fromJson(run.out.constFirst().toUtf8()).object()
                               : QJsonObject();
}

Run policyJson(const QString &spec, const QStringList &more = {})
{
    return outboxctl(QStringList {u"policy"_qs, u"--policy"_qs, spec, u"--json"_qs} + more);
}

// The field of every attempt, null as -1.
QList<qint64> column(const QJsonObject &schedule, const QString &field)
{
    QList<qint64> values;
    for (const QJsonValue &attempt : schedule.value(u"attempts"_qs).toArray()) {
        const QJsonValue value = attempt.toObject().value(field);
        values << (value.isNull() ? -1 : value.toInteger());
    }
    return values;
}

qint64 figure(const QJsonValue &spread, const char *which)
{
    return spread.toObject().value(QLatin1String(which)).toInteger(-1);
}

} // namespace

class TestOutboxctlPolicy : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(qEnvironmentVariable("OUTBOXCTL")),
            "OUTBOXCTL must name the binary (set by CTest)");
    }

    void deterministicKindsAreExact_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("budget");
        QTest::addColumn<QList<qint64>>("delays"); // -1: the last attempt, parked DEAD
        QTest::addColumn<QList<qint64>>("cumulative");

        QTest::addRow("seed: 10, 20, 40, 40")
            << u"seed"_qs << u"5"_qs << QList<qint64> {10, 20, 40, 40, -1}
            << QList<qint64> {0, 10, 30, 70, 110};
        QTest::addRow("capped like the seed")
            << u"capped:10,20,40"_qs << u"5"_qs << QList<qint64> {10, 20, 40, 40, -1}
            << QList<qint64> {0, 10, 30, 70, 110};
        QTest::addRow("fixed 80 ms, default budget 3")
            << u"fixed:80"_qs << QString() << QList<qint64> {80, 80, -1}
            << QList<qint64> {0, 80, 160};
        const QList<qint64> springDelays {
            100, 200, 400, 800, 1600, 3200, 6400, 12800, 25600, 30000, 30000, -1};
        const QList<qint64> springSince {
            0, 100, 300, 700, 1500, 3100, 6300, 12700, 25500, 51100, 81100, 111100};
        QTest::addRow("Spring's defaults by name")
            << u"exponential"_qs << u"12"_qs << springDelays << springSince;
        QTest::addRow("Spring's defaults spelt out")
            << u"exponential:initial=100,multiplier=2,max=30000"_qs << u"12"_qs << springDelays
            << springSince;
        QTest::addRow("one attempt parks at once")
            << u"exponential"_qs << u"1"_qs << QList<qint64> {-1} << QList<qint64> {0};
    }
    void deterministicKindsAreExact()
    {
        QFETCH(QString, spec);
        QFETCH(QString, budget);
        QFETCH(QList<qint64>, delays);
        QFETCH(QList<qint64>, cumulative);
        const Run run = policyJson(
            spec, budget.isEmpty() ? QStringList() : QStringList {u"--budget"_qs, budget});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.err.isEmpty());
        const QJsonObject schedule = jsonOf(run);
        QCOMPARE(schedule.value(u"policy"_qs).toString(), spec);
        QCOMPARE(schedule.value(u"budget"_qs).toInt(), delays.size());
        QCOMPARE(column(schedule, u"attempt"_qs).constFirst(), 1);
        QCOMPARE(column(schedule, u"delay_ms"_qs), delays);
        QCOMPARE(column(schedule, u"cumulative_ms"_qs), cumulative);
        QCOMPARE(schedule.value(u"dead_after_ms"_qs).toInteger(), cumulative.constLast());
        QVERIFY(!schedule.contains(u"seed"_qs));
    }

    // Spring's ExponentialRandomBackOffPolicy: between the exponential delay and `multiplier`
    // times it. Full jitter: anywhere from 0 to base times 2 to the k.
    void randomKindsStayInTheirBounds_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QList<qint64>>("low"); // the smallest possible delay after failure k
        QTest::addColumn<QList<qint64>>("high"); // the largest
        QTest::addRow("exponential-random, Spring's defaults")
            << u"exponential-random"_qs << QList<qint64> {100, 200, 400, 800, 1600}
            << QList<qint64> {200, 400, 800, 1600, 3200};
        QTest::addRow("exponential-random capped at 1 s")
            << u"exponential-random:initial=300,multiplier=3,max=1000"_qs
            << QList<qint64> {300, 900, 1000, 1000, 1000}
            << QList<qint64> {900, 1000, 1000, 1000, 1000};
        QTest::addRow("full jitter")
            << u"full-jitter:base=100,max=1000"_qs << QList<qint64> {0, 0, 0, 0, 0}
            << QList<qint64> {200, 400, 800, 1000, 1000};
    }
    void randomKindsStayInTheirBounds()
    {
        QFETCH(QString, spec);
        QFETCH(QList<qint64>, low);
        QFETCH(QList<qint64>, high);
        const Run run = policyJson(spec, {u"--budget"_qs, u"6"_qs});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject schedule = jsonOf(run);
        QCOMPARE(schedule.value(u"seed"_qs).toInt(), 1);
        QVERIFY(schedule.value(u"draws"_qs).toInt() >= 1000);
        const QJsonArray attempts = schedule.value(u"attempts"_qs).toArray();
        QCOMPARE(attempts.size(), 6);
        qint64 lowSum = 0;
        qint64 highSum = 0;
        for (int k = 0; k < 6; ++k) {
            const QJsonObject attempt = attempts.at(k).toObject();
            const QJsonValue since = attempt.value(u"cumulative_ms"_qs);
            QVERIFY2(figure(since, "min") >= lowSum && figure(since, "max") <= highSum,
                qPrintable(u"attempt %1"_qs.arg(k + 1)));
            QVERIFY(figure(since, "min") <= figure(since, "median")
                && figure(since, "median") <= figure(since, "max"));
            if (k == 5) {
                QVERIFY(attempt.value(u"delay_ms"_qs).isNull());
                QCOMPARE(schedule.value(u"dead_after_ms"_qs), since);
                break;
            }
            const QJsonValue delay = attempt.value(u"delay_ms"_qs);
            QVERIFY2(figure(delay, "min") >= low.at(k) && figure(delay, "max") <= high.at(k),
                qPrintable(u"delay after failure %1"_qs.arg(k + 1)));
            // Ten thousand draws reach close to both ends and spread between them.
            if (high.at(k) > low.at(k)) {
                const qint64 span = high.at(k) - low.at(k);
                QVERIFY(figure(delay, "min") - low.at(k) <= span / 50);
                QVERIFY(high.at(k) - figure(delay, "max") <= span / 50);
                QVERIFY(qAbs(figure(delay, "median") - (low.at(k) + high.at(k)) / 2) <= span / 10);
            }
            lowSum += low.at(k);
            highSum += high.at(k);
        }
    }

    void theSameSeedGivesTheSameFigures()
    {
        const QStringList seven {u"--budget"_qs, u"8"_qs, u"--seed"_qs, u"7"_qs};
        const Run first = policyJson(u"exponential-random"_qs, seven);
        const Run again = policyJson(u"exponential-random"_qs, seven);
        const Run other = policyJson(
            u"exponential-random"_qs, {u"--budget"_qs, u"8"_qs, u"--seed"_qs, u"8"_qs});
        QCOMPARE(first.exitCode, 0);
        QCOMPARE(again.out, first.out);
        QCOMPARE(jsonOf(first).value(u"seed"_qs).toInt(), 7);
        QVERIFY(jsonOf(other).value(u"attempts"_qs) != jsonOf(first).value(u"attempts"_qs));
    }

    void textIsATableEndingWithTheParking()
    {
        const Run run = outboxctl(
            {u"policy"_qs, u"--policy"_qs, u"exponential"_qs, u"--budget"_qs, u"12"_qs});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(
            run.out.constFirst(), u"exponential, budget 12 attempts, every attempt failing:"_qs);
        QCOMPARE(run.out.filter(QRegularExpression(u"^ +\\d+  "_qs)).size(), 12);
        QVERIFY(run.out.filter(u"parked DEAD"_qs).constFirst().startsWith(u"     12  "_qs));
        QVERIFY(!run.out.filter(QRegularExpression(u"^     10  30000 ms +51100 ms$"_qs)).isEmpty());
        QCOMPARE(
            run.out.constLast(), u"Parked DEAD 111100 ms (1 min 51 s) after the first attempt."_qs);

        const Run jittered = outboxctl({u"policy"_qs, u"--policy"_qs, u"exponential-random"_qs});
        QCOMPARE(jittered.exitCode, 0);
        QVERIFY(jittered.out.at(1).startsWith(u"(min / median / max over "_qs));
        QVERIFY(!jittered.out.filter(QRegularExpression(u"^      1  100 / 1\\d\\d / 200 ms"_qs))
                     .isEmpty());
    }

    void badInputIsRefusedWithTheCause_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("cause");
        QTest::addRow("unknown kind")
            << QStringList {u"--policy"_qs, u"linear:5"_qs} << u"unknown kind 'linear'"_qs;
        QTest::addRow("not a number")
            << QStringList {u"--policy"_qs, u"exponential:initial=soon"_qs}
            << u"initial must be a non-negative whole number"_qs;
        QTest::addRow("unknown parameter") << QStringList {u"--policy"_qs,
            u"full-jitter:initial=5"_qs} << u"unknown parameter 'initial'"_qs;
        QTest::addRow("capped without delays")
            << QStringList {u"--policy"_qs, u"capped:"_qs} << u"capped needs at least one delay"_qs;
        QTest::addRow("no policy")
            << QStringList {u"--budget"_qs, u"3"_qs} << u"--policy is required"_qs;
        QTest::addRow("budget 0") << QStringList {u"--policy"_qs, u"seed"_qs, u"--budget"_qs,
            u"0"_qs} << u"--budget must be a whole number from 1 to 1000, not '0'"_qs;
        QTest::addRow("budget too big") << QStringList {u"--policy"_qs, u"seed"_qs, u"--budget"_qs,
            u"1001"_qs} << u"--budget must be a whole number from 1 to 1000"_qs;
        QTest::addRow("negative seed") << QStringList {u"--policy"_qs, u"exponential-random"_qs,
            u"--seed"_qs, u"-1"_qs} << u"--seed must be a whole number from 0 to 4294967295"_qs;
        QTest::addRow("stray argument") << QStringList {u"--policy"_qs, u"seed"_qs, u"now"_qs}
                                        << u"unexpected argument 'now'"_qs;
    }
    void badInputIsRefusedWithTheCause()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, cause);
        const Run run = outboxctl(QStringList {u"policy"_qs} + arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.out.isEmpty());
        QCOMPARE(run.err.size(), 1);
        QVERIFY2(run.err.constFirst().startsWith(u"outboxctl: policy: "_qs)
                && run.err.constFirst().contains(cause),
            qPrintable(run.err.constFirst()));
    }
};

OUTBOX_TEST_MAIN(TestOutboxctlPolicy, QCoreApplication)
#include "tst_outboxctl_policy.moc"
