// The retry policy spec strings shared by the GUI and the CLI: the delay an operator sees
// after each failure, the range a jittered delay stays in, and the message for a bad spec.
#include "retrypolicy.h"
#include "testmain.h"

#include <QRandomGenerator>
#include <QSet>
#include <algorithm>
#include <limits>

namespace {

constexpr int Draws = 10000;

// The first delays.size() delays after failures 1, 2, ... with any generator.
QList<qint64> delays(const RetryPolicy &policy, int count)
{
    QRandomGenerator random(1);
    QList<qint64> out;
    for (int k = 1; k <= count; ++k)
        out << policy.delayAfter(k, random);
    return out;
}

RetryPolicy parsed(const QString &spec)
{
    RetryPolicy policy;
    QString error;
    if (!RetryPolicy::parse(spec, &policy, &error))
        qWarning("cannot parse %s: %s", qPrintable(spec), qPrintable(error));
    return policy;
}

} // namespace

class TestRetryPolicy : public QObject
{
    Q_OBJECT

private slots:
    void defaultIsTheSeedPolicy()
    {
        const RetryPolicy policy;
        QCOMPARE(policy.spec(), u"seed"_qs);
        QCOMPARE(policy.kind(), RetryPolicy::Kind::Capped);
        QCOMPARE(delays(policy, 5), QList<qint64>({10, 20, 40, 40, 40}));
    }

    void deterministicDelays_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QList<qint64>>("expected"); // after failures 1, 2, ...

        QTest::addRow("seed: 10, 20, then 40")
            << u"seed"_qs << int(RetryPolicy::Kind::Capped) << QList<qint64> {10, 20, 40, 40, 40};
        QTest::addRow("capped repeats the last delay")
            << u"capped:5,7"_qs << int(RetryPolicy::Kind::Capped) << QList<qint64> {5, 7, 7};
        QTest::addRow("capped like seed") << u"capped:10,20,40"_qs << int(RetryPolicy::Kind::Capped)
                                          << QList<qint64> {10, 20, 40, 40, 40};
        QTest::addRow("fixed is always the same") << u"fixed:80"_qs << int(RetryPolicy::Kind::Fixed)
                                                  << QList<qint64> {80, 80, 80, 80, 80, 80};
        QTest::addRow("exponential has Spring's defaults")
            << u"exponential"_qs << int(RetryPolicy::Kind::Exponential)
            << QList<qint64> {100, 200, 400, 800, 1600, 3200, 6400, 12800, 25600, 30000, 30000};
        QTest::addRow("exponential with every parameter")
            << u"exponential:initial=50,multiplier=3,max=1000"_qs
            << int(RetryPolicy::Kind::Exponential) << QList<qint64> {50, 150, 450, 1000, 1000};
        QTest::addRow("exponential with only initial")
            << u"exponential:initial=1000"_qs << int(RetryPolicy::Kind::Exponential)
            << QList<qint64> {1000, 2000, 4000, 8000, 16000, 30000};
        QTest::addRow("exponential with multiplier 1 is fixed")
            << u"exponential:initial=70,multiplier=1"_qs << int(RetryPolicy::Kind::Exponential)
            << QList<qint64> {70, 70, 70};
    }
    void deterministicDelays()
    {
        QFETCH(QString, spec);
        QFETCH(int, kind);
        QFETCH(QList<qint64>, expected);

        RetryPolicy policy;
        QString error;
        QVERIFY2(RetryPolicy::parse(spec, &policy, &error), qPrintable(error));
        QCOMPARE(policy.spec(), spec);
        QCOMPARE(int(policy.kind()), kind);
        QCOMPARE(delays(policy, int(expected.size())), expected);
        for (int k = 1; k <= expected.size(); ++k) {
            QCOMPARE(policy.minimumDelayAfter(k), expected.at(k - 1));
            QCOMPARE(policy.maximumDelayAfter(k), expected.at(k - 1));
        }
    }

    void exponentialIsCappedForManyFailures()
    {
        const RetryPolicy policy = parsed(u"exponential"_qs);
        QRandomGenerator random(7);
        QCOMPARE(policy.delayAfter(20, random), 30000);
        QCOMPARE(policy.delayAfter(64, random), 30000);
        QCOMPARE(policy.delayAfter(10000, random), 30000); // no overflow into a negative delay
        QCOMPARE(parsed(u"fixed:80"_qs).delayAfter(1000, random), 80);
        QCOMPARE(parsed(u"capped:5,7"_qs).delayAfter(1000, random), 7);
    }

    void exponentialRandomStaysWithinSpringsBounds()
    {
        const RetryPolicy policy
            = parsed(u"exponential-random:initial=100,multiplier=2,max=30000"_qs);
        QCOMPARE(policy.kind(), RetryPolicy::Kind::ExponentialRandom);
        QRandomGenerator random(20240601);
        for (int k = 1; k <= 12; ++k) {
            const qint64 base = std::min<qint64>(30000, qint64(100) << (k - 1));
            const qint64 top = std::min<qint64>(30000, 2 * (qint64(100) << (k - 1)));
            QCOMPARE(policy.minimumDelayAfter(k), base);
            QCOMPARE(policy.maximumDelayAfter(k), top);

            QSet<qint64> seen;
            qint64 lowest = std::numeric_limits<qint64>::max();
            qint64 highest = std::numeric_limits<qint64>::min();
            for (int i = 0; i < Draws; ++i) {
                const qint64 delay = policy.delayAfter(k, random);
                if (delay < base || delay > top)
                    QFAIL(qPrintable(
                        u"failure %1: delay %2 outside [%3, %4]"_qs.arg(k).arg(delay).arg(base).arg(
                            top)));
                seen << delay;
                lowest = std::min(lowest, delay);
                highest = std::max(highest, delay);
            }
            if (top == base) {
                QCOMPARE(seen.size(), 1); // capped: nothing left to spread
                continue;
            }
            const qint64 range = top - base;
            QVERIFY2(lowest < base + range / 10,
                qPrintable(u"failure %1: lowest %2"_qs.arg(k).arg(lowest)));
            QVERIFY2(highest > base + range * 9 / 10,
                qPrintable(u"failure %1: highest %2"_qs.arg(k).arg(highest)));
            if (k == 3)
                QVERIFY2(
                    seen.size() >= 50, qPrintable(u"only %1 distinct delays"_qs.arg(seen.size())));
        }
    }

    void fullJitterSpreadsOverTheWholeRange()
    {
        const RetryPolicy policy = parsed(u"full-jitter:base=100,max=5000"_qs);
        QCOMPARE(policy.kind(), RetryPolicy::Kind::FullJitter);
        QRandomGenerator random(99);
        for (int k = 1; k <= 8; ++k) {
            const qint64 bound = std::min<qint64>(5000, qint64(100) << k);
            QCOMPARE(policy.minimumDelayAfter(k), 0);
            QCOMPARE(policy.maximumDelayAfter(k), bound);

            qint64 lowest = std::numeric_limits<qint64>::max();
            qint64 highest = std::numeric_limits<qint64>::min();
            for (int i = 0; i < Draws; ++i) {
                const qint64 delay = policy.delayAfter(k, random);
                if (delay < 0 || delay > bound)
                    QFAIL(qPrintable(
                        u"failure %1: delay %2 outside [0, %3]"_qs.arg(k).arg(delay).arg(bound)));
                lowest = std::min(lowest, delay);
                highest = std::max(highest, delay);
            }
            QVERIFY2(lowest < bound / 10,
                qPrintable(u"failure %1: lowest %2 of %3"_qs.arg(k).arg(lowest).arg(bound)));
            QVERIFY2(highest > bound * 9 / 10,
                qPrintable(u"failure %1: highest %2 of %3"_qs.arg(k).arg(highest).arg(bound)));
        }
    }

    // A replayed simulation must show the same jittered schedule again.
    void sameSeedGivesSameJitter()
    {
        const RetryPolicy policy
            = parsed(u"exponential-random:initial=100,multiplier=2,max=30000"_qs);
        QRandomGenerator first(5);
        QRandomGenerator second(5);
        QList<qint64> a, b;
        for (int k = 1; k <= 8; ++k) {
            a << policy.delayAfter(k, first);
            b << policy.delayAfter(k, second);
        }
        QCOMPARE(a, b);
    }

    void rejectsBadSpecsNamingTheProblem_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("mention");

        QTest::addRow("empty") << QString() << u"empty spec"_qs;
        QTest::addRow("unknown kind") << u"nope"_qs << u"nope"_qs;
        QTest::addRow("capped without delays") << u"capped:"_qs << u"at least one delay"_qs;
        QTest::addRow("capped with a word") << u"capped:1,x"_qs << u"'x'"_qs;
        QTest::addRow("fixed with two delays") << u"fixed:1,2"_qs << u"exactly one delay"_qs;
        QTest::addRow("fixed negative") << u"fixed:-5"_qs << u"-5"_qs;
        QTest::addRow("exponential initial not a number")
            << u"exponential:initial=abc"_qs << u"initial"_qs;
        QTest::addRow("exponential multiplier below 1")
            << u"exponential:multiplier=0.5"_qs << u"multiplier"_qs;
        QTest::addRow("exponential unknown parameter") << u"exponential:foo=1"_qs << u"foo"_qs;
        QTest::addRow("exponential max below initial")
            << u"exponential:initial=500,max=100"_qs << u"max"_qs;
        QTest::addRow("exponential parameter without value")
            << u"exponential:initial"_qs << u"key=value"_qs;
        QTest::addRow("full-jitter has no multiplier")
            << u"full-jitter:multiplier=2"_qs << u"multiplier"_qs;
        QTest::addRow("exponential-random unknown parameter")
            << u"exponential-random:base=100"_qs << u"base"_qs;
    }
    void rejectsBadSpecsNamingTheProblem()
    {
        QFETCH(QString, spec);
        QFETCH(QString, mention);

        RetryPolicy policy = parsed(u"fixed:80"_qs);
        QString error;
        QVERIFY(!RetryPolicy::parse(spec, &policy, &error));
        // The message may quote the spec; the explanation after it must name the problem itself.
        QString why = error;
        const QString quoted = u"'"_qs + spec + u"'"_qs;
        if (const qsizetype at = why.indexOf(quoted); at >= 0)
            why.remove(at, quoted.size());
        QVERIFY2(why.contains(mention),
            qPrintable(u"'%1' does not mention '%2'"_qs.arg(error, mention)));
        // The policy in use is left as it was.
        QCOMPARE(policy.spec(), u"fixed:80"_qs);
        QCOMPARE(delays(policy, 2), QList<qint64>({80, 80}));
    }
};

OUTBOX_TEST_MAIN(TestRetryPolicy, QCoreApplication)

#include "tst_retrypolicy.moc"
