// When a desktop alert is due (AlertDecider) and what it names (HealthGrade): once per crossing
// into red or down, never for the state an outbox is first seen in, re-armed only by healthy,
// amber neither alerting nor re-arming, each outbox apart, and a mute that silences without
// replaying a crossing, remembered in the settings. The worst figure follows the tiles' limits.
#include "alertdecider.h"
#include "healthgrade.h"
#include "healthsnapshot.h"
#include "testmain.h"

#include <QSettings>
#include <QTemporaryDir>

using State = AlertDecider::State;
Q_DECLARE_METATYPE(State)

namespace {

State stateOf(QChar c)
{
    switch (c.toLatin1()) {
    case 'H':
        return State::Healthy;
    case 'A':
        return State::Amber;
    case 'R':
        return State::Red;
    case 'D':
        return State::Down;
    default:
        return State::Unknown;
    }
}

// The states in order ("HRHR") -> the alerts, one letter per step: R/D an alert of that kind,
// '.' none.
QString alertsFor(const QString &states)
{
    AlertDecider decider;
    QString alerts;
    for (QChar c : states) {
        const auto alert = decider.observe(u"orders"_qs, stateOf(c), u"figure"_qs);
        alerts += QChar(!alert ? u'.' : alert->state == State::Down ? u'D' : u'R');
    }
    return alerts;
}

HealthSnapshot withCounts(qint64 dead, qint64 leases, qint64 due, std::optional<qint64> oldestMs)
{
    HealthSnapshot s;
    s.now = 1700000000000; // a wall clock: ages in ms, s, min
    s.counts.dead = dead;
    s.counts.leaseExpired = leases;
    s.counts.due = due;
    s.oldestPendingAgeMs = oldestMs;
    return s;
}

} // namespace

class TestAlertDecider : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_settings.isValid());
        QCoreApplication::setOrganizationName(u"OutboxHealthTest"_qs);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); // "1,000"
    }
    void init() { QSettings().clear(); }

    void crossings_data()
    {
        QTest::addColumn<QString>("states");
        QTest::addColumn<QString>("alerts");
        // U unknown (no answer yet), H healthy, A amber, R red, D down.
        QTest::addRow("healthy then red alerts once") << u"HRRR"_qs << u".R.."_qs;
        QTest::addRow("red at first sight is a baseline") << u"RRHR"_qs << u"...R"_qs;
        QTest::addRow("down at first sight is a baseline") << u"DDHD"_qs << u"...D"_qs;
        QTest::addRow("unknown first, then red: red is first sight") << u"URHR"_qs << u"...R"_qs;
        QTest::addRow("amber to red alerts") << u"HARA"_qs << u"..R."_qs;
        QTest::addRow("amber first sight is armed") << u"AR"_qs << u".R"_qs;
        QTest::addRow("amber does not re-arm") << u"HRARAR"_qs << u".R...."_qs;
        QTest::addRow("healthy re-arms red") << u"HRHRHR"_qs << u".R.R.R"_qs;
        QTest::addRow("down alerts once") << u"HDDD"_qs << u".D.."_qs;
        QTest::addRow("healthy re-arms down") << u"HDHD"_qs << u".D.D"_qs;
        QTest::addRow("red then down: both, once each") << u"HRDRD"_qs << u".RD.."_qs;
        QTest::addRow("down then red when back") << u"HDRH"_qs << u".DR."_qs;
        QTest::addRow("unknown changes nothing") << u"HURUR"_qs << u"..R.."_qs;
        QTest::addRow("unknown does not re-arm") << u"HRURUR"_qs << u".R...."_qs;
        QTest::addRow("healthy all along") << u"HHHH"_qs << u"...."_qs;
        QTest::addRow("amber all along") << u"HAAA"_qs << u"...."_qs;
    }
    void crossings()
    {
        QFETCH(QString, states);
        QFETCH(QString, alerts);
        QCOMPARE(alertsFor(states), alerts);
    }

    void outboxesApart()
    {
        AlertDecider decider;
        decider.observe(u"orders"_qs, State::Healthy, {});
        decider.observe(u"billing"_qs, State::Healthy, {});
        QVERIFY(decider.observe(u"orders"_qs, State::Red, u"3 DEAD events"_qs));
        const auto billing = decider.observe(u"billing"_qs, State::Red, u"12 DEAD events"_qs);
        QVERIFY(billing);
        QCOMPARE(billing->text, u"billing: 12 DEAD events"_qs);
        QVERIFY(!decider.observe(u"orders"_qs, State::Red, u"4 DEAD events"_qs));
    }

    void textNamesOutboxAndFigure()
    {
        AlertDecider decider;
        decider.observe(u"billing"_qs, State::Healthy, {});
        const auto down
            = decider.observe(u"billing"_qs, State::Down, u"Cannot reach the database: refused"_qs);
        QVERIFY(down);
        QCOMPARE(down->outbox, u"billing"_qs);
        QCOMPARE(down->text, u"billing: down (Cannot reach the database: refused)"_qs);
        decider.observe(u"billing"_qs, State::Healthy, {});
        QCOMPARE(decider.observe(u"billing"_qs, State::Down, {})->text, u"billing: down"_qs);
    }

    void muteSilencesWithoutReplay()
    {
        AlertDecider decider;
        decider.observe(u"orders"_qs, State::Healthy, {});
        AlertDecider::setMuted(u"orders"_qs, true);
        QVERIFY(AlertDecider::isMuted(u"orders"_qs));
        QVERIFY(!AlertDecider::isMuted(u"billing"_qs));
        QVERIFY(!decider.observe(u"orders"_qs, State::Red, u"3 DEAD events"_qs));
        // Unmuted while still red: the crossing happened while muted and is not replayed.
        AlertDecider::setMuted(u"orders"_qs, false);
        QVERIFY(!decider.observe(u"orders"_qs, State::Red, u"3 DEAD events"_qs));
        decider.observe(u"orders"_qs, State::Healthy, {});
        QVERIFY(decider.observe(u"orders"_qs, State::Red, u"3 DEAD events"_qs));
    }

    void muteIsRemembered()
    {
        AlertDecider::setMuted(u"orders"_qs, true);
        AlertDecider::setMuted(u"billing"_qs, true);
        AlertDecider::setMuted(u"billing"_qs, true); // twice: kept once
        QCOMPARE(QSettings().value(u"alerts/muted"_qs).toStringList(),
            QStringList({u"billing"_qs, u"orders"_qs}));
        AlertDecider fresh; // another window, a later run: the same mutes
        fresh.observe(u"billing"_qs, State::Healthy, {});
        QVERIFY(!fresh.observe(u"billing"_qs, State::Down, {}));
        AlertDecider::setMuted(u"billing"_qs, false);
        QCOMPARE(QSettings().value(u"alerts/muted"_qs).toStringList(), QStringList({u"orders"_qs}));
    }

    void grade_data()
    {
        QTest::addColumn<HealthSnapshot>("snapshot");
        QTest::addColumn<int>("level");
        QTest::addColumn<QString>("figure");
        QTest::addRow("nothing wrong")
            << withCounts(0, 0, 0, 1000) << int(HealthGrade::Level::Normal) << QString();
        QTest::addRow("one DEAD is amber") << withCounts(1, 0, 0, std::nullopt)
                                           << int(HealthGrade::Level::Amber) << u"1 DEAD event"_qs;
        QTest::addRow("ten DEAD is red") << withCounts(10, 0, 0, std::nullopt)
                                         << int(HealthGrade::Level::Red) << u"10 DEAD events"_qs;
        QTest::addRow("red beats an earlier amber")
            << withCounts(1, 10, 0, std::nullopt) << int(HealthGrade::Level::Red)
            << u"10 expired leases"_qs;
        QTest::addRow("DEAD named first among reds")
            << withCounts(10, 10, 0, std::nullopt) << int(HealthGrade::Level::Red)
            << u"10 DEAD events"_qs;
        QTest::addRow("old pending is red from 10 min") << withCounts(0, 0, 0,
            600000) << int(HealthGrade::Level::Red) << u"oldest pending 10 min"_qs;
        QTest::addRow("due from 1,000 is amber")
            << withCounts(0, 0, 1000, 5000) << int(HealthGrade::Level::Amber) << u"1,000 due"_qs;
    }
    void grade()
    {
        QFETCH(HealthSnapshot, snapshot);
        QFETCH(int, level);
        QFETCH(QString, figure);
        const HealthGrade grade = HealthGrade::of(snapshot);
        QCOMPARE(int(grade.level), level);
        QCOMPARE(grade.figure, figure);
    }

    void gradeSkipsWhatTheSchemaCannotTell()
    {
        HealthSnapshot s = withCounts(50, 0, 0, std::nullopt);
        s.notAvailable << u"dead"_qs;
        QCOMPARE(HealthGrade::of(s).level, HealthGrade::Level::Normal);
    }

    void gradeFollowsTheUsersLimits()
    {
        TileThresholds limits;
        limits.dead = {100, 1000};
        QCOMPARE(HealthGrade::of(withCounts(50, 0, 0, std::nullopt), limits).level,
            HealthGrade::Level::Normal);
        QCOMPARE(HealthGrade::of(withCounts(1000, 0, 0, std::nullopt), limits).level,
            HealthGrade::Level::Red);
    }

private:
    QTemporaryDir m_settings;
};

OUTBOX_TEST_MAIN(TestAlertDecider, QCoreApplication)
#include "tst_alertdecider.moc"
