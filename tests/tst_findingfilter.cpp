// What a finding's "Show events" button filters the event table to (FindingFilter::of), for
// every code of the diagnosis contract: the derived state, the subject (error signature or
// event type), the order, and whether every listed event is one the finding counted.
#include "findingfilter.h"
#include "testmain.h"

Q_DECLARE_METATYPE(Finding)
Q_DECLARE_METATYPE(EventFilter::State)

namespace {

using State = EventFilter::State;

Finding finding(const QString &code, const QString &subject = {}, const QVariantMap &evidence = {})
{
    Finding result;
    result.code = code;
    result.subject = subject;
    result.evidence = evidence;
    return result;
}

} // namespace

class TestFindingFilter : public QObject
{
    Q_OBJECT

private slots:
    void everyCodeFilters_data()
    {
        QTest::addColumn<Finding>("finding");
        QTest::addColumn<State>("state");
        QTest::addColumn<QString>("signature");
        QTest::addColumn<QString>("type");
        QTest::addColumn<bool>("oldestFirst");
        QTest::addColumn<bool>("exact");
        QTest::newRow("relay_stalled: every due event, longest due first")
            << finding(DiagnosisCode::RelayStalled) << State::Due << QString() << QString() << true
            << false;
        QTest::newRow("lease_expired_unclaimed")
            << finding(DiagnosisCode::LeaseExpiredUnclaimed) << State::LeaseExpired << QString()
            << QString() << true << false;
        QTest::newRow("dominant_error: the DEAD events of its signature")
            << finding(DiagnosisCode::DominantError, u"HTTP <n> from inventory-<n>"_qs)
            << State::Dead << u"HTTP <n> from inventory-<n>"_qs << QString() << false << true;
        QTest::newRow("poison_type: the DEAD events of its type")
            << finding(DiagnosisCode::PoisonType, u"OrderPlaced"_qs) << State::Dead << QString()
            << u"OrderPlaced"_qs << false << true;
        QTest::newRow("retry_herd") << finding(DiagnosisCode::RetryHerd) << State::Scheduled
                                    << QString() << QString() << false << false;
        QTest::newRow("dead_rising: newest DEAD first")
            << finding(DiagnosisCode::DeadRising) << State::Dead << QString() << QString() << false
            << false;
        QTest::newRow("future_schedule")
            << finding(DiagnosisCode::FutureSchedule) << State::Scheduled << QString() << QString()
            << false << false;
        QTest::newRow("created_in_future") << finding(DiagnosisCode::CreatedInFuture) << State::Any
                                           << QString() << QString() << false << false;
        QTest::newRow("dead_events: every DEAD event, newest first")
            << finding(DiagnosisCode::DeadEvents) << State::Dead << QString() << QString() << false
            << true;
        QTest::newRow("blocked_aggregate by DEAD")
            << finding(DiagnosisCode::BlockedAggregate, {}, {{u"blocked_by_dead"_qs, 2}})
            << State::Dead << QString() << QString() << true << false;
        QTest::newRow("blocked_aggregate by expired leases only")
            << finding(DiagnosisCode::BlockedAggregate, {},
                   {{u"blocked_by_dead"_qs, 0}, {u"blocked_by_expired_lease"_qs, 3}})
            << State::LeaseExpired << QString() << QString() << true << false;
    }
    void everyCodeFilters()
    {
        QFETCH(Finding, finding);
        const std::optional<FindingFilter> filter = FindingFilter::of(finding);
        QVERIFY(filter);
        QFETCH(State, state);
        QCOMPARE(filter->filter.state, state);
        QFETCH(QString, signature);
        QCOMPARE(filter->filter.errorSignature, signature);
        QFETCH(QString, type);
        QCOMPARE(filter->filter.eventType, type);
        QFETCH(bool, oldestFirst);
        QCOMPARE(filter->oldestFirst, oldestFirst);
        QFETCH(bool, exact);
        QCOMPARE(filter->exact, exact);
    }

    void everyContractCodeHasAFilter()
    {
        for (const QString &code : DiagnosisCode::all())
            QVERIFY2(FindingFilter::of(finding(code)), qPrintable(code));
        QVERIFY(!FindingFilter::of(finding(u"no_such_code"_qs)));
    }
};

OUTBOX_TEST_MAIN(TestFindingFilter, QCoreApplication)
#include "tst_findingfilter.moc"
