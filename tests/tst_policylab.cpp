// The Policy lab as a user meets it: its outage what-if is the outage storm itself (the same
// numbers as `outboxctl simulate --scenario outage-storm` for its defaults, and as OutageStorm
// on either engine for other inputs), the tab's table, peak and error texts follow the boxes,
// the answers come from the lab's thread (no connection on the GUI thread, older answers
// dropped), and the tab is there on a read-only database.
#include "dbconnection.h"
#include "detailpane.h"
#include "mainwindow.h"
#include "outboxctlrun.h"
#include "pagenavigator.h"
#include "policylab.h"
#include "policylabpage.h"
#include "policyschedulemodel.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QListWidget>
#include <QSignalBlocker>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>

#include <functional>

namespace {

RetryPolicy policy(const QString &spec)
{
    RetryPolicy result;
    RetryPolicy::parse(spec, &result, nullptr);
    return result;
}

// What PolicyLab answers for `input`, or nothing after a minute. `meanwhile` runs on this
// thread while the lab's thread computes (e.g. the CLI's own storm, in a process of its own).
QList<StormRun> labRuns(const PolicyLabInput &input, const std::function<void()> &meanwhile = {})
{
    PolicyLab lab;
    QSignalSpy answered(&lab, &PolicyLab::stormsReady);
    lab.request(input);
    if (meanwhile)
        meanwhile();
    if (answered.isEmpty() && !answered.wait(60000))
        return {};
    return answered.constFirst().at(0).value<QList<StormRun>>();
}

// Sets a storm's number of events on the page before it is shown (its first computation, on
// show, reads it), without the settle timer's second request for the same input.
void setStormEvents(PolicyLabPage *page, int events)
{
    const QSignalBlocker quiet(page->eventsBox());
    page->eventsBox()->setValue(events);
}

QString cell(const QAbstractItemModel *model, int row, int column)
{
    return model->index(row, column).data().toString();
}

} // namespace

class TestPolicyLab : public QObject
{
    Q_OBJECT

private slots:
    // `simulate --scenario outage-storm --json`: per policy, storm_bucket lines (100 ms wide)
    // and a storm_summary. The lab, asked for the same storm, counts per second.
    void whatIfEqualsTheOutageStormScenario()
    {
        PolicyLabInput input;
        for (const QString &spec : OutageStorm::policies())
            input.policies << policy(spec);
        input.events = OutageStorm::Events;
        input.outageSeconds = int(OutageStorm::OutageUntil / 1000);
        input.budget = 20;
        input.seed = 1;
        // The CLI's storm runs while the lab's thread computes the same one. Its numbers do not
        // depend on where it runs: in memory (as the lab's scratch), not in a file whose every
        // attempt's commit waits for the disk (seconds more on a loaded machine).
        Run cli;
        const QList<StormRun> runs = labRuns(input, [&cli] {
            cli = outboxctl({u"simulate"_qs, u"--db"_qs, u"sqlite::memory:"_qs, u"--scenario"_qs,
                u"outage-storm"_qs, u"--json"_qs});
        });
        QCOMPARE(cli.exitCode, 0);
        QMap<QString, QMap<qint64, int>> perSecond; // policy -> second after recovery -> retries
        QMap<QString, QJsonObject> summaries;
        for (const QString &line : cli.out) {
            const QJsonObject object = QJsonDocument::fromJson(line.toUtf8()).object();
            const QString spec = object.value(u"policy"_qs).toString();
            const qint64 from = object.value(u"from"_qs).toInteger();
            if (object.value(u"event"_qs) == u"storm_bucket"_qs && from >= 2000)
                perSecond[spec][(from - 2000) / 1000] += object.value(u"retries"_qs).toInt();
            if (object.value(u"event"_qs) == u"storm_summary"_qs)
                summaries[spec] = object;
        }
        QStringList policies = OutageStorm::policies();
        policies.sort(); // as the map's keys
        QCOMPARE(summaries.keys(), policies);

        QCOMPARE(runs.size(), 2);
        for (const StormRun &run : runs) {
            const QJsonObject summary = summaries.value(run.policy);
            QCOMPARE(run.delivered, summary.value(u"delivered"_qs).toInt());
            QCOMPARE(run.dead, summary.value(u"dead"_qs).toInt());
            QCOMPARE(run.finishedAt, summary.value(u"finished_at"_qs).toInteger());
            QCOMPARE(run.peakSameInstant, summary.value(u"peak_retries_same_instant"_qs).toInt());
            const QList<int> seconds = run.retriesPerSecondAfterRecovery();
            QMap<qint64, int> shown;
            for (qsizetype s = 0; s < seconds.size(); ++s)
                if (seconds.at(s) > 0)
                    shown[s] = seconds.at(s);
            QCOMPARE(shown, perSecond.value(run.policy));
        }
        // The herd: all 200 retry together at +1.1 s (t = 3100); jitter spreads them.
        QCOMPARE(runs.at(0).peakAfterRecovery(), 200);
        QVERIFY(runs.at(1).peakAfterRecovery() < 200);
    }

    // Other inputs: the lab's storm is OutageStorm::run with the same setup, on either engine.
    void whatIfEqualsOutageStormForOtherInputs_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void whatIfEqualsOutageStormForOtherInputs()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        PolicyLabInput input;
        input.policies = {policy(u"full-jitter:base=200,max=5000"_qs), policy(u"fixed:700"_qs)};
        input.events = 60;
        input.outageSeconds = 3;
        input.budget = 6;
        input.seed = 9;
        const QList<StormRun> runs = labRuns(input);
        QCOMPARE(runs.size(), 2);
        for (const StormRun &run : runs) {
            StormRun direct;
            QString error;
            QVERIFY2(OutageStorm::run(connection->database(), policy(run.policy),
                         input.stormSetup(), &direct, &error),
                qPrintable(error));
            QCOMPARE(run.retriesPerBucket, direct.retriesPerBucket);
            QCOMPARE(run.delivered, direct.delivered);
            QCOMPARE(run.dead, direct.dead);
            QCOMPARE(run.finishedAt, direct.finishedAt);
            QCOMPARE(run.attempts, direct.attempts);
            QCOMPARE(run.delivered + run.dead, input.events);
        }
        // fixed:700 with 6 attempts: at 0, 0.7, 1.4, 2.1, 2.8 s all fail, the 6th at 3.5 s
        // lands after the recovery, all 60 together.
        QCOMPARE(runs.at(1).retriesPerSecondAfterRecovery(), QList<int>({60}));
        QCOMPARE(runs.at(1).delivered, 60);
    }

    void panelShowsTheScheduleAndThePeak()
    {
        const QThread *gui = QThread::currentThread();
        const int everOpened = DbConnection::everOpenedOn(gui);
        PolicyLabPage panel;
        QAbstractItemModelTester tester(
            panel.scheduleModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy simulated(&panel, &PolicyLabPage::simulated);
        panel.resize(1300, 500);
        panel.show(); // the first computation waits for this
        QVERIFY(panel.isSimulating());
        QCOMPARE(panel.statusText(), u"Simulating…"_qs);
        QVERIFY(simulated.wait(60000));
        QVERIFY(!panel.isSimulating());

        // Spring's defaults against its random variant, budget 20.
        const QAbstractItemModel *model = panel.scheduleView()->model();
        QCOMPARE(model->rowCount(), 20);
        QCOMPARE(model->columnCount(), 5);
        QCOMPARE(model->headerData(1, Qt::Horizontal).toString(), u"A: next after"_qs);
        QCOMPARE(cell(model, 0, 1), u"100 ms"_qs);
        QCOMPARE(cell(model, 0, 3), u"100–200 ms"_qs);
        QCOMPARE(cell(model, 9, 2), u"51.1 s"_qs);
        QCOMPARE(cell(model, 19, 1), u"parked DEAD"_qs);
        QCOMPARE(cell(model, 19, 2), u"5 min 51 s"_qs);
        QVERIFY2(panel.deadText().contains(u"A: 5 min 51 s; B: "_qs), qPrintable(panel.deadText()));

        // 1000 events, 60 s outage: the herd's next round lands at +21 s, all of it at once.
        QVERIFY2(panel.peakText().startsWith(u"A: peak 1000/s at +21 s; 1000 delivered, 0 DEAD"_qs),
            qPrintable(panel.peakText()));
        QCOMPARE(panel.runs().size(), 2);
        QVERIFY(panel.runs().at(1).peakAfterRecovery() < 200);
        QVERIFY(panel.statusText().startsWith(u"Simulated in "_qs));
        QCOMPARE(DbConnection::everOpenedOn(gui), everOpened); // the scratch: on the lab's thread

        // A budget of 3 parks every event within 300 ms of the outage's start.
        panel.policyBox(1)->setCurrentText(u"(none)"_qs);
        panel.budgetBox()->setValue(3);
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 3, 60000);
        QCOMPARE(model->columnCount(), 3);
        QCOMPARE(model->headerData(1, Qt::Horizontal).toString(), u"next after"_qs);
        QTRY_COMPARE_WITH_TIMEOUT(panel.peakText(),
            u"all 1000 events parked DEAD during the outage: nothing left to retry."_qs, 60000);
    }

    void aMalformedSpecIsNamedAndComputesNothing()
    {
        PolicyLabPage panel;
        QSignalSpy simulated(&panel, &PolicyLabPage::simulated);
        setStormEvents(&panel, 50); // the schedule is tested here: a small storm is enough
        panel.show();
        QVERIFY(simulated.wait(60000));
        const int rows = panel.scheduleModel()->rowCount();
        panel.policyBox(0)->setCurrentText(u"linear:5"_qs);
        QTRY_VERIFY(panel.errorText().contains(u"unknown kind 'linear'"_qs));
        QVERIFY(!panel.isSimulating());
        QCOMPARE(panel.scheduleModel()->rowCount(), rows); // the last good schedule stays
        panel.policyBox(0)->setCurrentText(u"fixed:80"_qs);
        QTRY_VERIFY(panel.errorText().isEmpty());
        QTRY_COMPARE(cell(panel.scheduleModel(), 0, 1), u"80 ms"_qs);
    }

    // Two requests in a row: the first storm is stopped, only the second's answer arrives.
    void onlyTheNewestAnswerArrives()
    {
        PolicyLab lab;
        QSignalSpy storms(&lab, &PolicyLab::stormsReady);
        QSignalSpy schedules(&lab, &PolicyLab::schedulesReady);
        PolicyLabInput first;
        first.policies = {policy(u"exponential-random"_qs)};
        first.events = 5000;
        PolicyLabInput second = first;
        second.events = 40;
        second.budget = 7;
        lab.request(first);
        lab.request(second);
        QVERIFY(storms.wait(60000));
        QCOMPARE(storms.size(), 1);
        QCOMPARE(storms.constFirst().at(0).value<QList<StormRun>>().constFirst().setup.events, 40);
        QTRY_COMPARE(schedules.size(), 1);
        QCOMPARE(
            schedules.constFirst().at(0).value<QList<PolicySchedule>>().constFirst().budget(), 7);
        QVERIFY(!lab.isSimulating());
    }

    // It writes nothing of the window's database: there on a read-only one too.
    void theTabIsThereOnAReadOnlyDatabase_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void theTabIsThereOnAReadOnlyDatabase()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QVERIFY(database->initialise());
        WindowOptions options;
        options.readOnly = true;
        options.markedForSimulation = false;
        MainWindow window(database->connect(), options);
        window.resize(1366, 768);
        window.show();
        QListWidget *rail = window.pages()->rail();
        QCOMPARE(rail->item(rail->count() - 1)->text(), u"Policy lab"_qs);
        QSignalSpy simulated(window.policyLab(), &PolicyLabPage::simulated);
        // The defaults' storm is panelShowsTheScheduleAndThePeak's: 100 events show it runs here.
        setStormEvents(window.policyLab(), 100);
        window.showTab(u"policy"_qs);
        QCOMPARE(window.pages()->stack()->currentWidget()->objectName(), u"policyPage"_qs);
        QVERIFY(simulated.wait(60000));
        QVERIFY2(window.policyLab()->peakText().startsWith(u"A: peak 100/s"_qs),
            qPrintable(window.policyLab()->peakText()));
        // The lab has the page's whole width (beside the rail only); the table is back after.
        QVERIFY(window.policyLab()->isVisible());
        QVERIFY(!window.eventView()->isVisible());
        QVERIFY(window.pages()->stack()->width()
            >= window.centralWidget()->width() - window.pages()->rail()->width() - 40);
        window.showTab(u"detail"_qs);
        QVERIFY(window.eventView()->isVisible());
        QVERIFY(window.detailPane()->isVisible());
    }
};

OUTBOX_TEST_MAIN(TestPolicyLab, QApplication)
#include "tst_policylab.moc"
