// One plan per action, whatever the surface: each replay (one event, a stale selection, all
// matching, an error group on hold, the same group with "include on-hold") is planned through
// the window (its dialog, which is then accepted or cancelled) and through `outboxctl replay
// --dry-run --json` on the same fixture, and the two plans must be the same (count, targets,
// left-out IDs and reasons). Then one surface executes it while a concurrent operator replays
// one target after the plan was shown: the outcome is the plan's targets replayed but that one,
// skipped with the plan's left-outs, the on-hold events left parked, on SQLite, PostgreSQL and
// MariaDB. Resolve (a stale selection, Errors › Resolve group… on the on-hold group: on-hold
// does not hold a resolve back) and reopen (a stale selection) the same way, against
// `outboxctl resolve|reopen --dry-run --json` and their real runs. Edit and replay (a DEAD
// event, and one replayed by someone else before the editor opens) against `outboxctl replay
// --edit FILE --dry-run --json`, then executed by one surface, on SQLite and PostgreSQL.
#include "editactions.h"
#include "errorgroupmodel.h"
#include "errorspage.h"
#include "eventlistmodel.h"
#include "mainwindow.h"
#include "operatoractions.h"
#include "operatordialog.h"
#include "operatornotes.h"
#include "outboxctlrun.h"
#include "outboxrows.h"
#include "payloadeditdialog.h"
#include "reopenactions.h"
#include "reopener.h"
#include "replaydialog.h"
#include "replayer.h"
#include "resolveactions.h"
#include "resolver.h"
#include "testdatabase.h"
#include "testmain.h"
#include "testwindow.h"

#include <QAction>
#include <QCheckBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryFile>
#include <QTimer>
#include <functional>

namespace {

constexpr qint64 Minute = 60 * 1000;
const QString Held = u"HTTP <n> for order <n>"_qs; // the on-hold group: H-1 .. H-3
const QString Timeouts = u"timeout after <n> ms"_qs; // T-1 .. T-3

OutboxRow dead(const QString &id, const QString &error, const QString &category, qint64 now)
{
    OutboxRow row;
    row.id = id;
    row.status = u"DEAD"_qs;
    row.failures = 3;
    row.error = error;
    row.category = category;
    row.createdAt = now - 30 * Minute;
    row.nextAttemptAt = now - 20 * Minute;
    return row;
}

// Three DEAD events of a group an operator put on hold, three of a timeout group, one PENDING.
bool seed(const QSqlDatabase &db)
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (int i = 1; i <= 3; ++i) {
        if (!insertRow(db,
                dead(u"H-%1"_qs.arg(i), u"HTTP 400 for order 10%1"_qs.arg(i), u"PERMANENT"_qs, now))
            || !insertRow(db,
                dead(u"T-%1"_qs.arg(i), u"timeout after %1 ms"_qs.arg(1000 * i), u"TRANSIENT"_qs,
                    now)))
            return false;
    }
    OutboxRow pending;
    pending.id = u"P-1"_qs;
    pending.createdAt = pending.nextAttemptAt = now - Minute;
    if (!insertRow(db, pending))
        return false;
    QString error;
    return OperatorNotes(db)
        .add({{{}, Held}, u"alice"_qs, u"do not replay until the fix deploys"_qs,
                 OperatorNotes::OnHold, now},
            &error)
        .has_value();
}

// Another operator replays `id` on a connection of their own.
bool replayedBySomeoneElse(const QSqlDatabase &db, const QString &id)
{
    ReplayRequest request;
    request.eventIds = {id};
    request.operatorName = u"bob"_qs;
    request.reason = u"concurrent"_qs;
    request.now = QDateTime::currentMSecsSinceEpoch();
    return Replayer(db).replay(request).error.isEmpty();
}

QString statusOf(const QSqlDatabase &db, const QString &id)
{
    QSqlQuery query(db);
    query.prepare(u"SELECT status FROM delivery_outbox WHERE event_id = :id"_qs);
    query.bindValue(u":id"_qs, id);
    return query.exec() && query.next() ? query.value(0).toString() : QString();
}

// What the two surfaces are compared on: the count, the targets, the left-out IDs with reasons.
struct PlanFacts
{
    qint64 count = -1;
    QStringList targets;
    QStringList leftOut; // "ID reason"

    bool operator==(const PlanFacts &other) const = default;
    QString text() const
    {
        return QStringLiteral("%1 [%2] left out [%3]")
            .arg(count)
            .arg(targets.join(u", "_qs), leftOut.join(u", "_qs));
    }
};

PlanFacts factsOf(const QJsonObject &plan)
{
    PlanFacts facts;
    facts.count = plan.value(u"count"_qs).toInteger(-1);
    for (const QJsonValue &id : plan.value(u"targets"_qs).toArray())
        facts.targets << id.toString();
    for (const QJsonValue &item : plan.value(u"left_out"_qs).toArray())
        facts.leftOut << item[u"event_id"_qs].toString() + u' ' + item[u"reason"_qs].toString();
    return facts;
}

QJsonObject jsonOf(const Run &run)
{
    return QJsonDocument::fromJson(run.out.join(u'\n').toUtf8()).object();
}

QStringList strings(const QJsonValue &array)
{
    QStringList list;
    for (const QJsonValue &value : array.toArray())
        list << value.toString();
    return list;
}

QStringList sorted(QStringList ids)
{
    ids.sort();
    return ids;
}

// Answers an operator dialog (`name`: "replay", "resolve" or "reopen", its fields' prefix) once
// it is ready: a replay's once its plan is (ticking "Include on-hold events" first when asked,
// and recording the plan). Records its button and left-out lines, lets `meanwhile` run (the
// concurrent operator), then confirms (or cancels); records the outcome's message box.
class PlanAnswerer : public QObject
{
public:
    PlanAnswerer(const QString &name, bool accept, std::function<void()> meanwhile,
        bool includeOnHold = false)
        : m_name(name)
        , m_include(includeOnHold)
        , m_accept(accept)
        , m_meanwhile(std::move(meanwhile))
    {
        connect(&m_timer, &QTimer::timeout, this, &PlanAnswerer::answer);
        m_timer.start(20);
    }
    std::optional<ActionPlan> plan; // a replay's
    QString button;
    QString leftOut;
    bool confirmable = false;
    bool done = false;
    QString message;

private:
    void answer()
    {
        QWidget *modal = QApplication::activeModalWidget();
        if (auto *box = qobject_cast<QMessageBox *>(modal)) {
            message = box->text(); // the outcome with skips ("Skipped 1, already replayed…")
            box->accept();
            return;
        }
        auto *dialog = qobject_cast<OperatorDialog *>(modal);
        if (!dialog || done)
            return;
        leftOut = dialog->leftOutText();
        if (auto *replay = qobject_cast<ReplayDialog *>(dialog)) {
            if (!replay->isPreviewReady())
                return;
            auto *box = dialog->findChild<QCheckBox *>(u"replayIncludeOnHold"_qs);
            if (m_include && box && !box->isChecked()) {
                box->setChecked(true); // a new plan follows
                return;
            }
            plan = replay->plan();
            leftOut = replay->leftOutText();
        }
        dialog->findChild<QLineEdit *>(m_name + u"Reason"_qs)->setText(u"consumer fixed"_qs);
        auto *ok = dialog->findChild<QPushButton *>(m_name + u"Ok"_qs);
        button = ok->text();
        confirmable = ok->isEnabled();
        done = true;
        m_meanwhile();
        if (m_accept && confirmable)
            ok->click();
        else
            dialog->reject();
    }
    QString m_name;
    bool m_include;
    bool m_accept;
    std::function<void()> m_meanwhile;
    QTimer m_timer;
};

int rowOf(const ErrorGroupModel *model, const QString &signature)
{
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->index(row, ErrorGroupModel::SignatureColumn).data().toString() == signature)
            return row;
    }
    return -1;
}

// The window's selection (Replay selected…), taken before T-2 was replayed by someone else.
const QStringList Selected = {u"T-1"_qs, u"T-2"_qs, u"T-3"_qs};

QStringList cliArguments(const QString &url, const QString &action, bool includeOnHold)
{
    QStringList cli = {u"replay"_qs, u"--db"_qs, url, u"--json"_qs};
    if (action == u"one"_qs)
        cli << u"--event"_qs << u"H-1"_qs;
    for (const QString &id : action == u"selected"_qs ? Selected : QStringList())
        cli << u"--event"_qs << id;
    if (action == u"matching"_qs)
        cli << u"--all-dead"_qs;
    if (action == u"group"_qs)
        cli << u"--error-group"_qs << Held;
    if (includeOnHold)
        cli << u"--include-on-hold"_qs;
    return cli;
}

// The action's dialog opened as an operator opens it (it runs modal: answered by PlanAnswerer).
void openDialog(MainWindow &window, const QString &action)
{
    if (action == u"one"_qs) {
        window.operatorActions()->replayEvents({u"H-1"_qs});
    } else if (action == u"selected"_qs) {
        window.operatorActions()->replayEvents(Selected); // what Replay selected… passes
    } else if (action == u"matching"_qs) {
        window.operatorActions()->replayMatchingAction()->trigger();
    } else { // Errors › Replay group… on the held group's row
        window.showTab(u"errors"_qs);
        auto *errors = window.findChild<ErrorsPage *>();
        QTRY_VERIFY(rowOf(errors->model(), Held) >= 0);
        errors->view()->selectRow(rowOf(errors->model(), Held));
        QTRY_VERIFY(errors->replayButton()->isEnabled());
        errors->replayButton()->click();
    }
}

// Another operator resolves (or reopens) `id` on a connection of their own.
bool changedBySomeoneElse(const QSqlDatabase &db, const StateChange::Spec &spec, const QString &id)
{
    OperatorRequest request;
    request.eventIds = {id};
    request.operatorName = u"bob"_qs;
    request.reason = u"concurrent"_qs;
    request.now = QDateTime::currentMSecsSinceEpoch();
    return StateChange(spec, db).run(request).error.isEmpty();
}

// A resolve or reopen row: the action, the events the window's surface names (the CLI takes the
// same with --event) and how the window opens the dialog.
struct ChangeCase
{
    QString action; // "resolve", "reopen"
    QString how; // "selected", "group"
    const StateChange::Spec &spec() const
    {
        return action == u"resolve"_qs ? Resolver::spec() : Reopener::spec();
    }
    QStringList ids() const
    {
        return how == u"group"_qs ? QStringList {u"H-1"_qs, u"H-2"_qs, u"H-3"_qs} : Selected;
    }
};

// Reopen's fixture: T-1..T-3 resolved first; then, for both, the stale selection: T-2 taken by
// someone else before the window's dialog opens (replayed for resolve, reopened for reopen).
bool prepareChange(const QSqlDatabase &db, const ChangeCase &change)
{
    if (change.action == u"reopen"_qs) {
        for (const QString &id : Selected) {
            if (!changedBySomeoneElse(db, Resolver::spec(), id))
                return false;
        }
        return changedBySomeoneElse(db, Reopener::spec(), u"T-2"_qs);
    }
    return change.how == u"group"_qs || replayedBySomeoneElse(db, u"T-2"_qs);
}

void openChangeDialog(MainWindow &window, const ChangeCase &change)
{
    if (change.action == u"reopen"_qs) {
        window.reopenActions()->askAndStart(Selected);
    } else if (change.how == u"selected"_qs) {
        window.resolveActions()->resolveEvents(Selected); // what Resolve selected… passes
    } else { // Errors › Resolve group… on the held group's row
        window.showTab(u"errors"_qs);
        auto *errors = window.findChild<ErrorsPage *>();
        QTRY_VERIFY(rowOf(errors->model(), Held) >= 0);
        errors->view()->selectRow(rowOf(errors->model(), Held));
        QTRY_VERIFY(errors->resolveButton() && errors->resolveButton()->isEnabled());
        errors->resolveButton()->click();
    }
}

QStringList changeArguments(const QString &url, const ChangeCase &change)
{
    // resolve and reopen need who and why even for a dry run
    QStringList cli = {change.action, u"--db"_qs, url, u"--json"_qs, u"--operator"_qs, u"ops"_qs,
        u"--reason"_qs, u"order cancelled"_qs};
    for (const QString &id : change.ids())
        cli << u"--event"_qs << id;
    return cli;
}

// Answers edit and replay: records a message box's text (the plan left the event out), or puts
// a new payload and a reason in the edit dialog and saves (or cancels).
class EditAnswerer : public QObject
{
public:
    explicit EditAnswerer(bool accept)
        : m_accept(accept)
    {
        connect(&m_timer, &QTimer::timeout, this, &EditAnswerer::answer);
        m_timer.start(20);
    }
    QString message;
    bool done = false;

private:
    void answer()
    {
        QWidget *modal = QApplication::activeModalWidget();
        if (auto *box = qobject_cast<QMessageBox *>(modal)) {
            message = box->text();
            done = true;
            box->accept();
            return;
        }
        auto *dialog = qobject_cast<PayloadEditDialog *>(modal);
        if (!dialog || done)
            return;
        dialog->findChild<QPlainTextEdit *>(u"editPayload"_qs)->setPlainText(u"{\"fixed\":1}"_qs);
        dialog->findChild<QLineEdit *>(u"editReason"_qs)->setText(u"upstream fixed"_qs);
        done = true;
        auto *ok = dialog->findChild<QPushButton *>(u"editOk"_qs);
        if (m_accept && ok->isEnabled())
            ok->click();
        else
            dialog->reject();
    }
    bool m_accept;
    QTimer m_timer;
};

} // namespace

class TestActionPlanSurfaces : public QObject
{
    Q_OBJECT

private slots:
    void windowAndCliShareThePlan_data()
    {
        TestDatabase::addEngineColumn();
        QTest::addColumn<QString>("action"); // one, selected, matching, group
        QTest::addColumn<bool>("includeOnHold");
        QTest::addColumn<bool>("windowExecutes"); // otherwise the CLI's real run
        QTest::addColumn<int>("count"); // what the plan acts on
        const struct
        {
            const char *name;
            const char *action;
            bool include;
            int count;
        } rows[] = {
            {"one event of a held group (named: taken)", "one", false, 1},
            {"stale selection (T-2 replayed by someone else)", "selected", false, 2},
            {"all matching (the held group left out)", "matching", false, 2},
            {"error group on hold (nothing to replay)", "group", false, 0},
            {"error group on hold, include on-hold", "group", true, 3},
        };
        for (const char *engine : {"sqlite", "postgresql", "mysql"}) {
            for (const auto &row : rows) {
                for (const bool window : {true, false})
                    QTest::addRow(
                        "%s: %s, run by the %s", engine, row.name, window ? "window" : "CLI")
                        << QString::fromLatin1(engine) << QString::fromLatin1(row.action)
                        << row.include << window << row.count;
            }
        }
    }
    void windowAndCliShareThePlan()
    {
        QFETCH(QString, engine);
        QFETCH(QString, action);
        QFETCH(bool, includeOnHold);
        QFETCH(bool, windowExecutes);
        QFETCH(int, count);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && seed(setup->database()));
        const QSqlDatabase db = setup->database();
        // The window's selection is taken before T-2 is replayed by someone else: stale.
        QVERIFY(replayedBySomeoneElse(db, u"T-2"_qs));

        const QStringList cli = cliArguments(database->url(), action, includeOnHold);
        const Run dry = outboxctl(cli + QStringList {u"--dry-run"_qs});
        QCOMPARE(dry.exitCode, 0);
        const QJsonObject cliPlan = jsonOf(dry);
        QCOMPARE(cliPlan.value(u"count"_qs).toInt(), count);
        QCOMPARE(cliPlan.value(u"events"_qs).toInt(), count); // the preview's key, kept

        MainWindow window(database->connect(), simulationOff());
        window.show();
        QTRY_VERIFY(window.eventModel()->rowCount() > 0);
        QTRY_VERIFY(window.operatorActions()->canReplay());
        // The concurrent operator: the first target is replayed while the dialog shows the plan.
        QString meanwhile;
        PlanAnswerer answerer(
            u"replay"_qs, windowExecutes,
            [&] {
                if (answerer.plan && !answerer.plan->targets.isEmpty()) {
                    meanwhile = answerer.plan->targets.constFirst();
                    replayedBySomeoneElse(db, meanwhile);
                }
            },
            includeOnHold);
        QSignalSpy finished(window.operatorActions(), &OperatorActions::replayFinished);
        openDialog(window, action);
        if (QTest::currentTestFailed())
            return;
        QTRY_VERIFY_WITH_TIMEOUT(answerer.done, 30000);
        QVERIFY(answerer.plan);

        // The same plan on both surfaces, and the dialog names its count.
        const PlanFacts windowFacts = factsOf(answerer.plan->toJson());
        QVERIFY2(windowFacts == factsOf(cliPlan),
            qPrintable(windowFacts.text() + u" != "_qs + factsOf(cliPlan).text()));
        QCOMPARE(answerer.button, u"Replay %1 event(s)"_qs.arg(count)); // no plural translator
        QCOMPARE(answerer.confirmable, count > 0);
        const QStringList onHold = answerer.plan->leftOutIds(PlanLeftOut::Reason::OnHold);
        if (!onHold.isEmpty())
            QVERIFY2(answerer.leftOut.contains(u"Left out %1 events on hold"_qs.arg(onHold.size())),
                qPrintable(answerer.leftOut));

        // Executed: the plan's targets but the one taken meanwhile, skipped with the plan's own.
        QStringList replayed = answerer.plan->targets;
        replayed.removeAll(meanwhile);
        QStringList skipped = answerer.plan->skippedIds();
        if (!meanwhile.isEmpty())
            skipped << meanwhile;
        if (windowExecutes && count > 0) {
            // It may have finished while the dialog's answer was still being processed.
            QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
            const auto result = finished.at(0).at(0).value<ReplayResult>();
            QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
            QCOMPARE(result.replayed, replayed);
            QCOMPARE(sorted(result.skipped), sorted(skipped));
        } else if (!windowExecutes) {
            const Run run = outboxctl(cli
                + QStringList {u"--operator"_qs, u"ops"_qs, u"--reason"_qs, u"consumer fixed"_qs});
            QCOMPARE(run.exitCode, 0);
            const QJsonObject outcome = jsonOf(run);
            // The real run plans again: a bulk selection no longer matches the event replayed
            // meanwhile (it is not DEAD), while one named by ID is a skip of the plan.
            if (action == u"matching"_qs || action == u"group"_qs)
                skipped.removeAll(meanwhile);
            QCOMPARE(strings(outcome.value(u"replayed"_qs)), replayed);
            QCOMPARE(sorted(strings(outcome.value(u"skipped"_qs))), sorted(skipped));
            QCOMPARE(strings(outcome.value(u"on_hold"_qs)), onHold);
        }
        for (const QString &id : onHold)
            QCOMPARE(statusOf(db, id), u"DEAD"_qs); // on hold: still parked
        for (const QString &id : std::as_const(replayed))
            QCOMPARE(statusOf(db, id), u"PENDING"_qs);
    }

    void stateChangesShareThePlan_data()
    {
        TestDatabase::addEngineColumn();
        QTest::addColumn<QString>("action"); // resolve, reopen
        QTest::addColumn<QString>("how"); // selected, group
        QTest::addColumn<bool>("windowExecutes"); // otherwise the CLI's real run
        QTest::addColumn<int>("count");
        const struct
        {
            const char *name;
            const char *action;
            const char *how;
            int count;
        } rows[] = {
            {"resolve a stale selection (T-2 replayed by someone else)", "resolve", "selected", 2},
            {"resolve group on hold (on-hold does not hold resolve back)", "resolve", "group", 3},
            {"reopen a stale selection (T-2 reopened by someone else)", "reopen", "selected", 2},
        };
        for (const char *engine : {"sqlite", "postgresql", "mysql"}) {
            for (const auto &row : rows) {
                for (const bool window : {true, false})
                    QTest::addRow(
                        "%s: %s, run by the %s", engine, row.name, window ? "window" : "CLI")
                        << QString::fromLatin1(engine) << QString::fromLatin1(row.action)
                        << QString::fromLatin1(row.how) << window << row.count;
            }
        }
    }
    void stateChangesShareThePlan()
    {
        QFETCH(QString, engine);
        QFETCH(QString, action);
        QFETCH(QString, how);
        QFETCH(bool, windowExecutes);
        QFETCH(int, count);
        const ChangeCase change {action, how};
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && seed(setup->database()));
        const QSqlDatabase db = setup->database();
        QVERIFY(prepareChange(db, change));

        const QStringList cli = changeArguments(database->url(), change);
        const Run dry = outboxctl(cli + QStringList {u"--dry-run"_qs});
        QCOMPARE(dry.exitCode, 0);
        const QJsonObject cliPlan = jsonOf(dry);
        QCOMPARE(cliPlan.value(u"action"_qs).toString(), action);
        QCOMPARE(cliPlan.value(u"count"_qs).toInt(), count);

        MainWindow window(database->connect(), simulationOff());
        window.show();
        QTRY_VERIFY(window.eventModel()->rowCount() > 0);
        StateChangeActions *actions = action == u"resolve"_qs
            ? static_cast<StateChangeActions *>(window.resolveActions())
            : window.reopenActions();
        QTRY_VERIFY(actions->refusal().isEmpty());
        std::optional<ActionPlan> plan;
        connect(
            actions, &StateChangeActions::planned, this, [&](const ActionPlan &p) { plan = p; });
        QString meanwhile; // the concurrent operator takes the first target meanwhile
        PlanAnswerer answerer(action, windowExecutes, [&] {
            if (plan && !plan->targets.isEmpty()) {
                meanwhile = plan->targets.constFirst();
                changedBySomeoneElse(db, change.spec(), meanwhile);
            }
        });
        QSignalSpy finished(actions, &StateChangeActions::finished);
        openChangeDialog(window, change);
        if (QTest::currentTestFailed())
            return;
        QTRY_VERIFY_WITH_TIMEOUT(answerer.done, 30000);
        QVERIFY(plan);
        PlanFacts windowFacts = factsOf(plan->toJson()), cliFacts = factsOf(cliPlan);
        windowFacts.targets.sort(); // a group's events come in the group's order
        cliFacts.targets.sort();
        QVERIFY2(
            windowFacts == cliFacts, qPrintable(windowFacts.text() + u" != "_qs + cliFacts.text()));
        const QString verb = action == u"resolve"_qs ? u"Resolve"_qs : u"Reopen"_qs;
        QCOMPARE(answerer.button, u"%1 %2 event(s)"_qs.arg(verb).arg(count));
        QCOMPARE(answerer.confirmable, count > 0);
        if (!plan->leftOut.isEmpty())
            QVERIFY2(answerer.leftOut.startsWith(u"Left out 1 event no longer"_qs),
                qPrintable(answerer.leftOut));
        checkChangeOutcome(db, cli, *plan, meanwhile, windowExecutes, finished);
    }

    void editAndReplayShareThePlan_data()
    {
        TestDatabase::addEngineColumn();
        QTest::addColumn<bool>("stale"); // T-1 replayed by someone else first
        QTest::addColumn<bool>("windowExecutes"); // otherwise the CLI's real run
        for (const char *engine : {"sqlite", "postgresql"}) {
            for (const bool stale : {false, true}) {
                for (const bool window : {true, false})
                    QTest::addRow("%s: %s, run by the %s", engine,
                        stale ? "no longer DEAD (left out)" : "a DEAD event",
                        window ? "window" : "CLI")
                        << QString::fromLatin1(engine) << stale << window;
            }
        }
    }
    void editAndReplayShareThePlan()
    {
        QFETCH(QString, engine);
        QFETCH(bool, stale);
        QFETCH(bool, windowExecutes);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && seed(setup->database()));
        const QSqlDatabase db = setup->database();
        QVERIFY(!stale || replayedBySomeoneElse(db, u"T-1"_qs));
        QTemporaryFile file;
        QVERIFY(file.open());
        file.write("{\"fixed\":1}");
        file.flush();
        const QStringList cli = {u"replay"_qs, u"--db"_qs, database->url(), u"--event"_qs,
            u"T-1"_qs, u"--edit"_qs, file.fileName(), u"--json"_qs, u"--operator"_qs, u"ops"_qs,
            u"--reason"_qs, u"upstream fixed"_qs};
        const Run dry = outboxctl(cli + QStringList {u"--dry-run"_qs});
        QCOMPARE(dry.exitCode, 0);
        const QJsonObject cliPlan = jsonOf(dry);
        QCOMPARE(cliPlan.value(u"action"_qs).toString(), u"edit-and-replay"_qs);
        QCOMPARE(cliPlan.value(u"count"_qs).toInt(), stale ? 0 : 1);
        QVERIFY(cliPlan.contains(stale ? u"skipped"_qs : u"would_replay"_qs)); // kept keys

        MainWindow window(database->connect(), simulationOff());
        window.show();
        QTRY_VERIFY(window.eventModel()->rowCount() > 0);
        QTRY_COMPARE(window.editActions()->refusal(), QString());
        std::optional<ActionPlan> plan;
        connect(window.editActions(), &EditActions::planned, this,
            [&](const ActionPlan &p) { plan = p; });
        QSignalSpy finished(window.editActions(), &EditActions::editFinished);
        EditAnswerer answerer(windowExecutes);
        window.editActions()->editEvent(u"T-1"_qs);
        QTRY_VERIFY_WITH_TIMEOUT(answerer.done, 30000);
        QVERIFY(plan);
        const PlanFacts windowFacts = factsOf(plan->toJson()), cliFacts = factsOf(cliPlan);
        QVERIFY2(
            windowFacts == cliFacts, qPrintable(windowFacts.text() + u" != "_qs + cliFacts.text()));
        QCOMPARE(answerer.message.contains(u"not DEAD: it is PENDING"_qs), stale);
        if (windowExecutes && !stale) {
            QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
        } else if (!windowExecutes) {
            const Run run = outboxctl(cli);
            QCOMPARE(run.exitCode, 0);
            QCOMPARE(strings(jsonOf(run).value(u"skipped"_qs)),
                stale ? QStringList {u"T-1"_qs} : QStringList {});
        }
        QCOMPARE(statusOf(db, u"T-1"_qs), u"PENDING"_qs); // edited and replayed, or before
    }

private:
    // Executed: the plan's targets but the one taken meanwhile, skipped with the plan's own.
    void checkChangeOutcome(const QSqlDatabase &db, const QStringList &cli, const ActionPlan &plan,
        const QString &meanwhile, bool windowExecutes, QSignalSpy &finished)
    {
        QStringList done = plan.targets;
        done.removeAll(meanwhile);
        QStringList skipped = plan.skippedIds();
        skipped << meanwhile;
        if (windowExecutes) {
            QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
            const auto outcome = finished.at(0).at(0).value<OperatorOutcome>();
            QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
            QCOMPARE(outcome.done, done);
            QCOMPARE(sorted(outcome.skipped), sorted(skipped));
        } else {
            const Run run = outboxctl(cli);
            QCOMPARE(run.exitCode, 0);
            const QJsonObject outcome = jsonOf(run);
            const QString key = plan.action == u"resolve"_qs ? u"resolved"_qs : u"reopened"_qs;
            QCOMPARE(strings(outcome.value(key)), done);
            QCOMPARE(sorted(strings(outcome.value(u"skipped"_qs))), sorted(skipped));
        }
        const QString to = plan.action == u"resolve"_qs ? u"RESOLVED"_qs : u"DEAD"_qs;
        for (const QString &id : std::as_const(done))
            QCOMPARE(statusOf(db, id), to);
    }
};

OUTBOX_TEST_MAIN(TestActionPlanSurfaces, QApplication)
#include "tst_actionplan_surfaces.moc"
