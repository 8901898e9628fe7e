// The outage-storm lesson on both engines: plain exponential backoff sends all 200 retries at
// the same instants (a thundering herd); Spring's randomised variant spreads them out.
#include "outagestorm.h"
#include "testdatabase.h"
#include "testmain.h"

namespace {

RetryPolicy policy(const QString &spec)
{
    RetryPolicy result;
    RetryPolicy::parse(spec, &result, nullptr);
    return result;
}

} // namespace

class TestOutageStorm : public QObject
{
    Q_OBJECT

private slots:
    void jitterSpreadsTheHerd_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void jitterSpreadsTheHerd()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QString error;

        StormRun herd;
        QVERIFY2(OutageStorm::run(connection->database(), policy(OutageStorm::policies().at(0)), 1,
                     &herd, &error),
            qPrintable(error));
        const QMap<qint64, int> expected {
            {100, 200}, {300, 200}, {700, 200}, {1500, 200}, {3100, 200}};
        QCOMPARE(
            herd.retriesPerBucket, expected); // every event retries at 100, 300, 700, 1500, 3100
        QCOMPARE(herd.peakSameInstant, 200);
        QCOMPARE(herd.delivered, OutageStorm::Events);
        QCOMPARE(herd.finishedAt, 3100);

        StormRun spread;
        QVERIFY2(OutageStorm::run(connection->database(), policy(OutageStorm::policies().at(1)), 1,
                     &spread, &error),
            qPrintable(error));
        QCOMPARE(spread.delivered, OutageStorm::Events);
        QVERIFY2(spread.peakSameInstant <= 20, qPrintable(QString::number(spread.peakSameInstant)));
        QVERIFY(spread.retriesPerBucket.size() > 3 * herd.retriesPerBucket.size());
        // After the first round, no bucket sees the whole herd again.
        for (auto it = spread.retriesPerBucket.cbegin(); it != spread.retriesPerBucket.cend();
             ++it) {
            if (it.key() >= 300)
                QVERIFY2(it.value() < 150,
                    qPrintable(QStringLiteral("%1: %2").arg(it.key()).arg(it.value())));
        }
        QCOMPARE(
            OutageStorm::toTrace(spread).constLast().value(u"peak_retries_same_instant"_qs).toInt(),
            spread.peakSameInstant);
    }
};

OUTBOX_TEST_MAIN(TestOutageStorm, QCoreApplication)
#include "tst_outagestorm.moc"
