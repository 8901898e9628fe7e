// Operator notes and markers from the window, as an operator would, on SQLite, PostgreSQL and
// MariaDB: "Add note…" on a DEAD row (the row menu) with an on-hold marker shows in the table
// (the row's marker and its tooltip), the detail pane (operator, marker and the text as typed:
// HTML shown literally) and, on the error group (the Errors tab's "Add note…"), in the group's
// Note column and on every event of the group. Hostile words (control characters, 4001
// characters) keep the dialog's confirm button disabled with the model's reason, and nothing is
// written. Read-only and a version 2 schema: the actions disabled, the tooltip saying why.
// The DEAD tile reads "2 DEAD (1 on hold)" once a marker covers one; Replay all matching leaves
// the on-hold event out unless asked.
#include "detailpane.h"
#include "dialoganswerer.h"
#include "errorgroupmodel.h"
#include "errorspage.h"
#include "eventlistmodel.h"
#include "eventtablemenu.h"
#include "healthtiles.h"
#include "mainwindow.h"
#include "notedialog.h"
#include "notesactions.h"
#include "operatoractions.h"
#include "operatornotes.h"
#include "parkedevents.h"
#include "replaydialog.h"
#include "testdatabase.h"
#include "testmain.h"
#include "testwindow.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTimer>
#include <functional>

namespace {

qint64 count(const QSqlDatabase &db, const QString &sql)
{
    return scalar(db, sql).toLongLong();
}

using Answerer = DialogAnswerer<NoteDialog>;

QAction *fromMenu(
    MainWindow &window, const QString &eventId, const QString &text, std::unique_ptr<QMenu> *menu)
{
    const int row = window.eventModel()->rowOfEvent(eventId);
    menu->reset(window.tableMenu()->menuFor(window.eventView()->model()->index(row, 0)));
    for (QAction *action : (*menu)->actions()) {
        if (action->text().startsWith(text))
            return action;
    }
    return nullptr;
}

QVariant rowData(MainWindow &window, const QString &eventId, int column, int role)
{
    const int row = window.eventModel()->rowOfEvent(eventId);
    return window.eventModel()->index(row, column).data(role);
}

void answerWith(NoteDialog *dialog, const QString &who, const QString &text, const QString &marker)
{
    dialog->findChild<QLineEdit *>(u"noteOperator"_qs)->setText(who);
    dialog->findChild<QPlainTextEdit *>(u"noteText"_qs)->setPlainText(text);
    auto *markers = dialog->findChild<QComboBox *>(u"noteMarker"_qs);
    markers->setCurrentIndex(markers->findData(marker));
    dialog->findChild<QPushButton *>(u"noteConfirm"_qs)->click();
}

QString statusOf(const QSqlDatabase &db, const QString &id)
{
    QSqlQuery query(db);
    query.prepare(u"SELECT status FROM delivery_outbox WHERE event_id = :id"_qs);
    query.bindValue(u":id"_qs, id);
    return query.exec() && query.next() ? query.value(0).toString() : QString();
}

// Answers the replay dialog once its preview is ready, ticking "Include on-hold events" first
// when asked (and waiting for the preview that follows).
class ReplayAnswerer : public QObject
{
public:
    explicit ReplayAnswerer(bool include)
        : m_include(include)
    {
        connect(&m_timer, &QTimer::timeout, this, &ReplayAnswerer::answer);
        m_timer.start(20);
    }
    QString preview;
    bool checkboxShown = false;

private:
    void answer()
    {
        auto *dialog = qobject_cast<ReplayDialog *>(QApplication::activeModalWidget());
        if (!dialog || !dialog->isPreviewReady())
            return;
        auto *box = dialog->findChild<QCheckBox *>(u"replayIncludeOnHold"_qs);
        checkboxShown = box && box->isVisible();
        if (m_include && box && !box->isChecked()) {
            box->setChecked(true); // a new preview is computed
            return;
        }
        preview = dialog->previewText();
        dialog->findChild<QLineEdit *>(u"replayReason"_qs)->setText(u"consumer fixed"_qs);
        dialog->findChild<QPushButton *>(u"replayOk"_qs)->click();
    }
    bool m_include;
    QTimer m_timer;
};

const QString Hostile = u"<b>fix</b> deploys at 14:00 <img src=x>, do not replay"_qs;

} // namespace

class TestNotesWindow : public QObject
{
    Q_OBJECT

private slots:
    void noteShowsEverywhere_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void noteShowsEverywhere()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && parkEvents(setup->database(), 3));
        const QSqlDatabase db = setup->database();
        MainWindow window(database->connect(), {});
        window.show();
        QTRY_COMPARE(window.eventModel()->rowCount(), 4);
        QTRY_COMPARE(window.notesActions()->refusal(), QString());
        QTRY_VERIFY(window.selectEvent(u"P-0001"_qs));
        std::unique_ptr<QMenu> menu;
        QAction *add = fromMenu(window, u"P-0001"_qs, u"Add note"_qs, &menu);
        QVERIFY(add);
        QTRY_VERIFY(add->isEnabled());

        QString target;
        QSignalSpy finished(window.notesActions(), &NotesActions::noteFinished);
        {
            Answerer answerer([&](NoteDialog *dialog) {
                target = dialog->findChild<QLabel *>(u"noteTarget"_qs)->text();
                answerWith(dialog, u"alice"_qs, Hostile, u"on-hold"_qs);
            });
            add->trigger();
            QVERIFY(finished.wait(30000));
            QCOMPARE(answerer.box, QString()); // a success is a status-bar line, not a box
        }
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(1).toString()));
        QVERIFY2(target.contains(u"P-0001"_qs), qPrintable(target));
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM operator_note WHERE cleared_at IS NULL"_qs), 1);

        // The table: the row's marker and the note in its tooltip, escaped (shown literally).
        QTRY_COMPARE(
            rowData(window, u"P-0001"_qs, EventListModel::StateColumn, EventListModel::NoteRole)
                .toString(),
            u"on-hold"_qs);
        const QString tip
            = rowData(window, u"P-0001"_qs, EventListModel::StateColumn, Qt::ToolTipRole)
                  .toString();
        QVERIFY2(tip.contains(u"&lt;b&gt;fix&lt;/b&gt;"_qs) && tip.contains(u"alice"_qs),
            qPrintable(tip));
        QCOMPARE(
            rowData(window, u"P-0002"_qs, EventListModel::StateColumn, EventListModel::NoteRole)
                .toString(),
            QString()); // another event of the group: the note is on P-0001 only
        QCOMPARE(
            window.eventModel()
                ->index(window.eventModel()->rowOfEvent(u"P-0001"_qs), EventListModel::StateColumn)
                .data()
                .toString(),
            u"DEAD"_qs);

        // The detail pane: who, the marker and the text exactly as typed, as plain text.
        DetailPane *pane = window.detailPane();
        QTRY_VERIFY2(pane->notesText().contains(Hostile), qPrintable(pane->notesText()));
        QVERIFY(pane->notesText().contains(u"alice"_qs));
        QVERIFY(pane->notesText().contains(u"ON-HOLD"_qs));
        QCOMPARE(pane->findChild<QLabel *>(u"eventNotes"_qs)->textFormat(), Qt::PlainText);

        // The error group: "Add note…" on the Errors tab, investigating.
        window.showPage(u"errors"_qs);
        auto *errors = window.findChild<ErrorsPage *>();
        QVERIFY(errors);
        QTRY_COMPARE(errors->model()->rowCount(), 1);
        errors->view()->selectRow(0);
        auto *groupAdd = window.findChild<QPushButton *>(u"addGroupNoteButton"_qs);
        QVERIFY(groupAdd);
        QTRY_VERIFY(groupAdd->isEnabled());
        finished.clear();
        {
            Answerer groupAnswer([](NoteDialog *dialog) {
                answerWith(dialog, u"bob"_qs, u"looking at the schema bug\nsecond line"_qs,
                    u"investigating"_qs);
            });
            groupAdd->click();
            QTRY_COMPARE(finished.size(), 1);
        }
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(1).toString()));
        const auto noteCell = [&] {
            return errors->model()->index(0, ErrorGroupModel::NoteColumn).data().toString();
        };
        QTRY_COMPARE(noteCell(), u"INVESTIGATING · looking at the schema bug"_qs);
        // Every DEAD event of the group carries the group's marker; P-0001 stays on hold.
        QTRY_COMPARE(
            rowData(window, u"P-0002"_qs, EventListModel::StateColumn, EventListModel::NoteRole)
                .toString(),
            u"investigating"_qs);
        QCOMPARE(
            rowData(window, u"P-0001"_qs, EventListModel::StateColumn, EventListModel::NoteRole)
                .toString(),
            u"on-hold"_qs);
        window.showPage(u"events"_qs);
        QVERIFY(window.selectEvent(u"P-0003"_qs));
        QTRY_VERIFY2(pane->notesText().contains(u"looking at the schema bug"_qs),
            qPrintable(pane->notesText()));
        QVERIFY(pane->notesText().contains(u"error group"_qs));

        // The DEAD tile: "3 DEAD (1 on hold, 2 investigating)", from the diagnosis.
        QTRY_COMPARE(window.tiles()->deadText(), u"3 DEAD (1 on hold, 2 investigating)"_qs);
        QCOMPARE(
            window.tiles()->hintText(HealthTiles::Tile::Dead), u"(1 on hold, 2 investigating)"_qs);

        // Clear notes… on P-0001: kept, marked cleared; its marker goes, the group's stays.
        QVERIFY(window.selectEvent(u"P-0001"_qs));
        finished.clear();
        QTRY_VERIFY(window.notesActions()->clearNotesAction()->isEnabled());
        {
            Answerer clearAnswer([](NoteDialog *dialog) {
                dialog->findChild<QLineEdit *>(u"noteOperator"_qs)->setText(u"carol"_qs);
                dialog->findChild<QPushButton *>(u"noteConfirm"_qs)->click();
            });
            window.notesActions()->clearNotesAction()->trigger();
            QTRY_COMPARE(finished.size(), 1);
        }
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(1).toString()));
        QTRY_COMPARE(
            rowData(window, u"P-0001"_qs, EventListModel::StateColumn, EventListModel::NoteRole)
                .toString(),
            u"investigating"_qs);
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM operator_note"_qs), 2);
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM operator_note WHERE cleared_by = 'carol'"_qs), 1);
    }

    void hostileWordsChangeNothing_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void hostileWordsChangeNothing()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && parkEvents(setup->database(), 1));
        MainWindow window(database->connect(), {});
        window.show();
        QTRY_COMPARE(window.eventModel()->rowCount(), 2);
        QTRY_COMPARE(window.notesActions()->refusal(), QString());
        QTRY_VERIFY(window.selectEvent(u"P-0001"_qs));
        QTRY_VERIFY(window.notesActions()->addNoteAction()->isEnabled());

        QStringList reasons;
        QList<bool> enabled;
        Answerer answerer([&](NoteDialog *dialog) {
            auto *text = dialog->findChild<QPlainTextEdit *>(u"noteText"_qs);
            auto *ok = dialog->findChild<QPushButton *>(u"noteConfirm"_qs);
            auto *error = dialog->findChild<QLabel *>(u"noteError"_qs);
            for (const QString &words :
                {u"rewrite\x1b[2K the line"_qs, QString(4001, u'x'), u"   "_qs}) {
                text->setPlainText(words);
                enabled << ok->isEnabled();
                reasons << error->text();
                ok->click(); // refused: the dialog stays
            }
            dialog->reject();
        });
        window.notesActions()->addNoteAction()->trigger();
        QTRY_COMPARE(answerer.dialogs, 1);
        QTRY_COMPARE(reasons.size(), 3);
        QCOMPARE(enabled, (QList<bool> {false, false, false}));
        QVERIFY2(reasons.at(0).contains(u"control characters"_qs), qPrintable(reasons.at(0)));
        QVERIFY2(reasons.at(1).contains(u"4000"_qs), qPrintable(reasons.at(1)));
        QVERIFY2(!reasons.at(2).isEmpty(), "a blank note says it is required");
        QCOMPARE(count(setup->database(), u"SELECT COUNT(*) FROM operator_note"_qs), 0);
        QCOMPARE(answerer.box, QString());
    }

    void replayAllLeavesOnHoldOut_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void replayAllLeavesOnHoldOut()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && parkEvents(setup->database(), 3));
        const QSqlDatabase db = setup->database();
        QString error;
        OperatorNotes notes(db);
        QVERIFY2(notes.add({{u"P-0002"_qs, {}}, u"alice"_qs, u"do not replay"_qs,
                               OperatorNotes::OnHold, 1000},
                     &error),
            qPrintable(error));
        MainWindow window(database->connect(), {});
        window.show();
        QTRY_COMPARE(window.eventModel()->rowCount(), 4);
        QTRY_VERIFY(window.operatorActions()->replayMatchingAction()->isEnabled());

        QSignalSpy finished(window.operatorActions(), &OperatorActions::replayFinished);
        {
            ReplayAnswerer answerer(false);
            window.operatorActions()->replayMatchingAction()->trigger();
            QVERIFY(finished.wait(30000));
            QVERIFY(answerer.checkboxShown);
            QVERIFY2(answerer.preview.contains(u"Would replay 2 events"_qs),
                qPrintable(answerer.preview));
            QVERIFY2(answerer.preview.contains(u"Left out 1 event on hold"_qs),
                qPrintable(answerer.preview));
        }
        QCOMPARE(statusOf(db, u"P-0001"_qs), u"PENDING"_qs);
        QCOMPARE(statusOf(db, u"P-0002"_qs), u"DEAD"_qs); // on hold: still parked
        QCOMPARE(statusOf(db, u"P-0003"_qs), u"PENDING"_qs);

        // Ticked: the on-hold event is replayed too.
        QTRY_VERIFY(window.operatorActions()->replayMatchingAction()->isEnabled());
        finished.clear();
        {
            ReplayAnswerer answerer(true);
            window.operatorActions()->replayMatchingAction()->trigger();
            QVERIFY(finished.wait(30000));
            QVERIFY2(answerer.preview.contains(u"Would replay 1 event"_qs),
                qPrintable(answerer.preview));
            QVERIFY(!answerer.preview.contains(u"Left out"_qs));
        }
        QCOMPARE(statusOf(db, u"P-0002"_qs), u"PENDING"_qs);
    }

    void refusedWithTheReason_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void refusedWithTheReason()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && parkEvents(setup->database(), 2));
        {
            ReadOnlyWindow window(database->url());
            window.show();
            QTRY_COMPARE(window.eventModel()->rowCount(), 3);
            QVERIFY(window.selectEvent(u"P-0001"_qs));
            for (QAction *action : {window.notesActions()->addNoteAction(),
                     window.notesActions()->clearNotesAction()}) {
                QVERIFY(!action->isEnabled());
                QVERIFY2(
                    action->toolTip().contains(u"Read-only"_qs), qPrintable(action->toolTip()));
            }
            window.showPage(u"errors"_qs);
            auto *errors = window.findChild<ErrorsPage *>();
            QTRY_COMPARE(errors->model()->rowCount(), 1);
            errors->view()->selectRow(0);
            auto *groupAdd = window.findChild<QPushButton *>(u"addGroupNoteButton"_qs);
            QVERIFY(!groupAdd->isEnabled());
            QVERIFY2(
                groupAdd->toolTip().contains(u"Read-only"_qs), qPrintable(groupAdd->toolTip()));
        }
        // A version 2 schema: disabled, saying what to run.
        const QSqlDatabase db = setup->database();
        QSqlQuery(db).exec(
            u"UPDATE outbox_meta SET value = '2' WHERE \"key\" = 'schema_version'"_qs);
        MainWindow window(database->connect(), {});
        window.show();
        QTRY_COMPARE(window.eventModel()->rowCount(), 3);
        QTRY_VERIFY2(window.notesActions()->refusal().contains(u"outboxctl migrate --db URL"_qs),
            qPrintable(window.notesActions()->refusal()));
        QVERIFY(window.selectEvent(u"P-0001"_qs));
        QAction *add = window.notesActions()->addNoteAction();
        QVERIFY(!add->isEnabled());
        QVERIFY2(add->toolTip().contains(u"outboxctl migrate"_qs), qPrintable(add->toolTip()));
    }
};

OUTBOX_TEST_MAIN(TestNotesWindow, QApplication)
#include "tst_noteswindow.moc"
