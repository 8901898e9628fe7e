// When a desktop alert is due (AlertDecider) and what it names (HealthGrade): once per crossing
// into red or down, never for the state an outbox is first seen in, re-armed only by healthy
// (which says it recovered), amber neither alerting nor re-arming, a reminder after the quiet
// period for one that stays red or down (an injected clock), an open alert's text following the
// figure, each outbox apart, and a mute that silences without replaying a crossing, remembered
// in the settings. The worst figure follows the tiles' limits.
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
// h a recovery, '.' none. Each step is AlertDecider::DownGraceMs later (a down outbox has had
// no figures for that long, so it is down): far from a reminder.
QString alertsFor(const QString &states)
{
    qint64 now = 0;
    AlertDecider decider([&now] { return now; });
    QString alerts;
    for (QChar c : states) {
        now += AlertDecider::DownGraceMs;
        if (c == u'|') { // a teaching scenario started on the outbox
            decider.rebase(u"orders"_qs);
            alerts += u'.';
            continue;
        }
        const auto alert = decider.observe(u"orders"_qs, stateOf(c), u"figure"_qs);
        alerts += QChar(!alert                   ? u'.'
                : alert->state == State::Healthy ? u'h'
                : alert->state == State::Down    ? u'D'
                                                 : u'R');
    }
    return alerts;
}

constexpr qint64 Minute = 60 * 1000;

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
        // U unknown (no answer yet), H healthy, A amber, R red, D down, | rebase.
        QTest::addRow("healthy then red alerts once") << u"HRRR"_qs << u".R.."_qs;
        QTest::addRow("red at first sight is a baseline") << u"RRHR"_qs << u"...R"_qs;
        QTest::addRow("down at first sight is a baseline") << u"DDHD"_qs << u"...D"_qs;
        QTest::addRow("unknown first, then red: red is first sight") << u"URHR"_qs << u"...R"_qs;
        QTest::addRow("amber to red alerts") << u"HARA"_qs << u"..R."_qs;
        QTest::addRow("amber first sight is armed") << u"AR"_qs << u".R"_qs;
        QTest::addRow("amber does not re-arm") << u"HRARAR"_qs << u".R...."_qs;
        QTest::addRow("healthy re-arms red, saying it recovered") << u"HRHRHR"_qs << u".RhRhR"_qs;
        QTest::addRow("down alerts once") << u"HDDD"_qs << u".D.."_qs;
        QTest::addRow("healthy re-arms down") << u"HDHD"_qs << u".DhD"_qs;
        QTest::addRow("red then down: both, once each") << u"HRDRD"_qs << u".RD.."_qs;
        QTest::addRow("down then red when back") << u"HDRH"_qs << u".DRh"_qs;
        QTest::addRow("unknown changes nothing") << u"HURUR"_qs << u"..R.."_qs;
        QTest::addRow("unknown does not re-arm") << u"HRURUR"_qs << u".R...."_qs;
        QTest::addRow("healthy all along") << u"HHHH"_qs << u"...."_qs;
        QTest::addRow("amber all along") << u"HAAA"_qs << u"...."_qs;
        QTest::addRow("red, amber, healthy: recovered once healthy") << u"HRAH"_qs << u".R.h"_qs;
        QTest::addRow("a baseline red that heals was never alerted") << u"RH"_qs << u".."_qs;
        QTest::addRow("amber that heals was never alerted") << u"HAH"_qs << u"..."_qs;
        QTest::addRow("a rebase forgets: healthy after it is no recovery")
            << u"HR|H"_qs << u".R.."_qs;
        QTest::addRow("a rebase forgets: red after it is a first sight")
            << u"HR|R"_qs << u".R.."_qs;
        QTest::addRow("after a rebase red is armed again") << u"HR|HR"_qs << u".R..R"_qs;
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
        qint64 now = 0;
        AlertDecider decider([&now] { return now; });
        decider.observe(u"billing"_qs, State::Healthy, {});
        now = AlertDecider::DownGraceMs;
        // The cause as the stale banner says it (HealthMonitor::failureHeadline).
        const auto down
            = decider.observe(u"billing"_qs, State::Down, u"Cannot reach the database: refused"_qs);
        QVERIFY(down);
        QCOMPARE(down->outbox, u"billing"_qs);
        QCOMPARE(down->text, u"billing: down — Cannot reach the database: refused"_qs);
        QCOMPARE(down->kind, AlertDecider::Alert::Kind::Crossing);
        decider.observe(u"billing"_qs, State::Healthy, {});
        now += AlertDecider::DownGraceMs;
        QCOMPARE(decider.observe(u"billing"_qs, State::Down, {})->text, u"billing: down"_qs);
    }

    // An open alert's text follows the figure (the alert bar shows it): after 12 minutes of a
    // DEAD count rising from 10 to 97, it says 97, not 10; and the cause of an outage as it is now.
    void openTextFollowsTheFigure()
    {
        qint64 now = 0;
        AlertDecider decider([&now] { return now; });
        QVERIFY(decider.openText(u"demo"_qs).isEmpty());
        decider.observe(u"demo"_qs, State::Amber, u"3 DEAD events"_qs);
        QVERIFY(decider.openText(u"demo"_qs).isEmpty()); // amber alone opens nothing
        const auto alert = decider.observe(u"demo"_qs, State::Red, u"10 DEAD events"_qs);
        QVERIFY(alert);
        QCOMPARE(alert->text, u"demo: 10 DEAD events"_qs);
        QCOMPARE(decider.openText(u"demo"_qs), u"demo: 10 DEAD events"_qs);
        now = 12 * Minute;
        QVERIFY(!decider.observe(u"demo"_qs, State::Red, u"97 DEAD events"_qs));
        QCOMPARE(decider.openText(u"demo"_qs), u"demo: 97 DEAD events"_qs);
        QVERIFY(!decider.observe(u"demo"_qs, State::Amber, u"5 DEAD events"_qs));
        QCOMPARE(decider.openText(u"demo"_qs), u"demo: 5 DEAD events"_qs);
        QVERIFY(!decider.isOpenDown(u"demo"_qs));
        now += AlertDecider::DownGraceMs;
        QVERIFY(
            decider.observe(u"demo"_qs, State::Down, u"Cannot reach the database: no answer"_qs));
        QVERIFY(!decider.observe(u"demo"_qs, State::Down,
            u"Cannot reach the database: the server refuses connections"_qs));
        QCOMPARE(decider.openText(u"demo"_qs),
            u"demo: down — Cannot reach the database: the server refuses connections"_qs);
        QVERIFY(decider.isOpenDown(u"demo"_qs));
        decider.observe(u"demo"_qs, State::Healthy, {});
        QVERIFY(decider.openText(u"demo"_qs).isEmpty()); // closed by the recovery
    }

    // An outbox that stays red (or down) alerts again once QuietPeriodMs has passed since the
    // last alert, saying for how long; one that heals says so, with how long it was out.
    void remindsAfterTheQuietPeriodAndSaysWhenRecovered()
    {
        QCOMPARE(AlertDecider::QuietPeriodMs, 30 * Minute); // as docs/user-guide.md says
        qint64 now = 0;
        AlertDecider decider([&now] { return now; });
        decider.observe(u"orders"_qs, State::Healthy, {});
        QVERIFY(decider.observe(u"orders"_qs, State::Red, u"10 DEAD events"_qs));
        now = AlertDecider::QuietPeriodMs - 1;
        QVERIFY(!decider.observe(u"orders"_qs, State::Red, u"40 DEAD events"_qs));
        now = AlertDecider::QuietPeriodMs;
        const auto again = decider.observe(u"orders"_qs, State::Red, u"41 DEAD events"_qs);
        QVERIFY(again);
        QCOMPARE(again->kind, AlertDecider::Alert::Kind::Reminder);
        QCOMPARE(again->state, State::Red);
        QCOMPARE(again->text, u"orders: 41 DEAD events (still after 30 min)"_qs);
        // The next quiet period counts from the reminder.
        now += AlertDecider::QuietPeriodMs - 1;
        QVERIFY(!decider.observe(u"orders"_qs, State::Red, u"41 DEAD events"_qs));
        now += 1;
        QCOMPARE(decider.observe(u"orders"_qs, State::Red, u"42 DEAD events"_qs)->text,
            u"orders: 42 DEAD events (still after 1 h)"_qs);
        // Amber is not red: no reminder, however long.
        now += 2 * AlertDecider::QuietPeriodMs;
        QVERIFY(!decider.observe(u"orders"_qs, State::Amber, u"3 DEAD events"_qs));
        now += 2 * Minute;
        const auto healthy = decider.observe(u"orders"_qs, State::Healthy, {});
        QVERIFY(healthy);
        QCOMPARE(healthy->kind, AlertDecider::Alert::Kind::Recovery);
        QCOMPARE(healthy->state, State::Healthy);
        QCOMPARE(healthy->text, u"orders: healthy again (after 2 h)"_qs);
        QVERIFY(!decider.observe(u"orders"_qs, State::Healthy, {})); // once
    }

    // The state a window opens on is on screen already; still red a quiet period later, it is
    // worth an alert.
    void aBaselineRedIsRemindedToo()
    {
        qint64 now = 0;
        AlertDecider decider([&now] { return now; });
        QVERIFY(!decider.observe(u"orders"_qs, State::Down, u"Cannot reach the database: x"_qs));
        now = AlertDecider::QuietPeriodMs;
        const auto again
            = decider.observe(u"orders"_qs, State::Down, u"Cannot reach the database: x"_qs);
        QVERIFY(again);
        QCOMPARE(
            again->text, u"orders: down — Cannot reach the database: x (still after 30 min)"_qs);
    }

    void mutedGetsNoReminderNorRecovery()
    {
        qint64 now = 0;
        AlertDecider decider([&now] { return now; });
        decider.observe(u"orders"_qs, State::Healthy, {});
        QVERIFY(decider.observe(u"orders"_qs, State::Red, u"10 DEAD events"_qs));
        AlertDecider::setMuted(u"orders"_qs, true);
        now = 2 * AlertDecider::QuietPeriodMs;
        QVERIFY(!decider.observe(u"orders"_qs, State::Red, u"10 DEAD events"_qs));
        QVERIFY(!decider.observe(u"orders"_qs, State::Healthy, {}));
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
        qint64 now = 0;
        AlertDecider fresh([&now] { return now; }); // another window, a later run: the same mutes
        fresh.observe(u"billing"_qs, State::Healthy, {});
        now = AlertDecider::DownGraceMs;
        QVERIFY(!fresh.observe(u"billing"_qs, State::Down, {}));
        AlertDecider::setMuted(u"billing"_qs, false);
        QCOMPARE(QSettings().value(u"alerts/muted"_qs).toStringList(), QStringList({u"orders"_qs}));
    }

    // A lost connection is not news by itself: down only once no figures came for
    // DownGraceMs; healed, the figure before it is what counts. The same figure raises nothing
    // (the open alert keeps its text), a changed red one is an alert saying what it was.
    void aLostConnectionThatChangesNothingRaisesNothing_data()
    {
        QTest::addColumn<qint64>("outageMs");
        QTest::addColumn<QString>("after");
        QTest::addColumn<QString>("alert"); // empty: none
        QTest::addRow("a 4 s restart, the same DEAD count")
            << qint64(4000) << u"1,971 DEAD events"_qs << QString();
        QTest::addRow("a 4 s restart, more DEAD")
            << qint64(4000) << u"2,300 DEAD events"_qs
            << u"orders: 2,300 DEAD events (1,971 DEAD events before the connection was lost)"_qs;
        QTest::addRow("a long outage, the same DEAD count")
            << 5 * Minute << u"1,971 DEAD events"_qs << QString();
        QTest::addRow("a long outage, fewer DEAD")
            << 5 * Minute << u"1,500 DEAD events"_qs
            << u"orders: 1,500 DEAD events (1,971 DEAD events before the connection was lost)"_qs;
    }
    void aLostConnectionThatChangesNothingRaisesNothing()
    {
        QFETCH(qint64, outageMs);
        QFETCH(QString, after);
        QFETCH(QString, alert);
        qint64 now = 0;
        AlertDecider decider([&now] { return now; });
        decider.observe(u"orders"_qs, State::Healthy, {});
        now = 10 * Minute;
        QVERIFY(decider.observe(u"orders"_qs, State::Red, u"1,971 DEAD events"_qs));
        // The failures while the server is away, one a second.
        QStringList during;
        for (qint64 t = 1000; t <= outageMs; t += 1000) {
            now = 10 * Minute + t;
            if (const auto down = decider.observe(u"orders"_qs, State::Down, u"Cannot reach"_qs))
                during << down->text;
        }
        const bool long_ = outageMs >= AlertDecider::DownGraceMs;
        QCOMPARE(during, long_ ? QStringList {u"orders: down — Cannot reach"_qs} : QStringList());
        QCOMPARE(decider.openText(u"orders"_qs),
            long_ ? u"orders: down — Cannot reach"_qs : u"orders: 1,971 DEAD events"_qs);
        now += 1000;
        const auto back = decider.observe(u"orders"_qs, State::Red, after);
        QCOMPARE(back ? back->text : QString(), alert);
        QCOMPARE(decider.openText(u"orders"_qs), alert.isEmpty() ? u"orders: "_qs + after : alert);
        QVERIFY(!decider.isOpenDown(u"orders"_qs));
        // And the next snapshot is no news either.
        now += 1000;
        QVERIFY(!decider.observe(u"orders"_qs, State::Red, after));
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
