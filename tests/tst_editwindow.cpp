// Edit and replay from the window, as an operator would, on SQLite, PostgreSQL and MariaDB: the
// row menu's "Edit and replay…" on one DEAD event opens the JSON editor with redacted values
// masked and the sentence of what an edit cannot do; while the text is not JSON the confirm
// button is disabled and the parse error names its line and column; saved, the event is
// PENDING with the new payload, its original in payload_revision, a status-bar message and no
// message box. Another operator's edit landing while the dialog is open: a clear message box,
// nothing of this operator's written. Read-only and a version 2 schema: disabled, the tooltip
// saying why (what to run).
#include "detailpane.h"
#include "dialoganswerer.h"
#include "editactions.h"
#include "eventlistmodel.h"
#include "eventtablemenu.h"
#include "jobstatus.h"
#include "mainwindow.h"
#include "parkedevents.h"
#include "payloadeditdialog.h"
#include "payloadeditor.h"
#include "testdatabase.h"
#include "testmain.h"
#include "testwindow.h"

#include <QAction>
#include <QCheckBox>
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

QString payloadOf(const QSqlDatabase &db, const QString &id)
{
    QSqlQuery query(db);
    query.prepare(u"SELECT payload FROM delivery_outbox WHERE event_id = :id"_qs);
    query.bindValue(u":id"_qs, id);
    return query.exec() && query.next() ? query.value(0).toString() : QString();
}

using Answerer = DialogAnswerer<PayloadEditDialog>;

QAction *editFromMenu(MainWindow &window, const QString &eventId, std::unique_ptr<QMenu> *menu)
{
    const int row = window.eventModel()->rowOfEvent(eventId);
    menu->reset(window.tableMenu()->menuFor(window.eventView()->model()->index(row, 0)));
    for (QAction *action : (*menu)->actions()) {
        if (action->text().startsWith(u"Edit and replay"_qs))
            return action;
    }
    return nullptr;
}

} // namespace

class TestEditWindow : public QObject
{
    Q_OBJECT

private slots:
    void editFromTheRowMenu_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void editFromTheRowMenu()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && parkEvents(setup->database(), 2, [](int) {
            return u"{\"sku\":\"SKU-1\",\"quantity\":\"2\",\"apiToken\":\"t-secret\"}"_qs;
        }));
        const QSqlDatabase db = setup->database();
        const QString original = payloadOf(db, u"P-0001"_qs);
        MainWindow window(database->connect(), {});
        window.show();
        QTRY_COMPARE(window.eventModel()->rowCount(), 3);
        QTRY_COMPARE(window.editActions()->refusal(), QString());
        QTRY_VERIFY(window.selectEvent(u"P-0001"_qs));
        std::unique_ptr<QMenu> menu;
        QAction *edit = editFromMenu(window, u"P-0001"_qs, &menu);
        QVERIFY(edit);
        QTRY_VERIFY(edit->isEnabled());

        QString shown, cannot, error, afterReveal;
        bool okWhileInvalid = true;
        Answerer answerer([&](PayloadEditDialog *dialog) {
            auto *editor = dialog->findChild<QPlainTextEdit *>(u"editPayload"_qs);
            shown = editor->toPlainText();
            cannot = dialog->findChild<QLabel *>(u"editCannot"_qs)->text();
            dialog->findChild<QLineEdit *>(u"editReason"_qs)->setText(u"quantity as text"_qs);
            dialog->findChild<QLineEdit *>(u"editOperator"_qs)->setText(u"alice"_qs);
            auto *ok = dialog->findChild<QPushButton *>(u"editOk"_qs);
            editor->setPlainText(u"{\n  \"sku\": \"SKU-1\",\n  \"quantity\": 2,\n}"_qs);
            okWhileInvalid = ok->isEnabled();
            error = dialog->findChild<QLabel *>(u"editPayloadError"_qs)->text();
            QString fixed = shown;
            fixed.replace(u"\"2\""_qs, u"2"_qs);
            editor->setPlainText(fixed);
            ok->click();
        });
        QSignalSpy finished(window.editActions(), &EditActions::editFinished);
        edit->trigger();
        QVERIFY(finished.wait(30000));
        const auto result = finished.at(0).at(0).value<PayloadEditResult>();
        QVERIFY2(result.ok(), qPrintable(result.error));

        // The editor showed the payload with the token masked, and said what it cannot do.
        QVERIFY2(shown.contains(u"\"apiToken\": \"***\""_qs), qPrintable(shown));
        QVERIFY(!shown.contains(u"t-secret"_qs));
        QCOMPARE(cannot,
            u"If the consumer already applied this event (its acknowledgement was lost), it "
            "answers DUPLICATE and ignores the new payload: the event ID is what it "
            "deduplicates on."_qs);
        // Not JSON: no saving, and where the error is.
        QVERIFY(!okWhileInvalid);
        QVERIFY2(
            error.startsWith(u"the new payload is not JSON: "_qs) && error.contains(u"line 4"_qs),
            qPrintable(error));

        // Saved: PENDING under the same ID, the token kept, the original in the revision; a
        // status-bar message, no box.
        QCOMPARE(scalar(db, u"SELECT status FROM delivery_outbox WHERE event_id = 'P-0001'"_qs)
                     .toString(),
            u"PENDING"_qs);
        QCOMPARE(payloadOf(db, u"P-0001"_qs),
            u"{\"apiToken\":\"t-secret\",\"quantity\":2,\"sku\":\"SKU-1\"}"_qs);
        QCOMPARE(scalar(db, u"SELECT payload FROM payload_revision WHERE event_id = 'P-0001'"_qs)
                     .toString(),
            original);
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM replay_log WHERE event_id = 'P-0001'"_qs), 1);
        QCOMPARE(answerer.dialogs, 1);
        QCOMPARE(answerer.box, QString());
        QTRY_VERIFY2(window.editActions()->status()->text().contains(u"Edited P-0001"_qs),
            qPrintable(window.editActions()->status()->text()));
        // The table reads again on its own cadence after the snapshot that saw the change
        // (EventTableCadence spaces its reads by their cost): more than 5 s once under load.
        QTRY_COMPARE_WITH_TIMEOUT(window.eventModel()
                                      ->index(window.eventModel()->rowOfEvent(u"P-0001"_qs), 0)
                                      .data(EventListModel::StatusRole)
                                      .toString(),
            u"PENDING"_qs, 15000);

        // The detail pane lists the revision (the token still masked) and which payload the
        // attempt carried: the one before the edit.
        window.detailPane()->refresh();
        QTRY_VERIFY2(window.detailPane()->revisionsText().contains(u"Revision 1 by alice at "_qs),
            qPrintable(window.detailPane()->revisionsText()));
        const QString revisions = window.detailPane()->revisionsText();
        QVERIFY2(
            revisions.contains(u": quantity as text (1 changed: ~ quantity: \"2\" \u2192 2)"_qs),
            qPrintable(revisions));
        QVERIFY2(revisions.endsWith(u"\nAttempt 1 carried the original payload"_qs),
            qPrintable(revisions));
        QVERIFY(!revisions.contains(u"t-secret"_qs));
    }

    void anotherOperatorWinsWhileTheDialogIsOpen_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void anotherOperatorWinsWhileTheDialogIsOpen()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && parkEvents(setup->database(), 2));
        const QSqlDatabase db = setup->database();
        const QString original = payloadOf(db, u"P-0001"_qs);
        MainWindow window(database->connect(), {});
        window.show();
        QTRY_COMPARE(window.eventModel()->rowCount(), 3);
        QTRY_COMPARE(window.editActions()->refusal(), QString());
        QTRY_VERIFY(window.selectEvent(u"P-0001"_qs));
        QTRY_VERIFY(window.editActions()->editSelectedAction()->isEnabled());

        Answerer answerer([&](PayloadEditDialog *dialog) {
            // Bob saves first, on his own connection, from the same payload.
            PayloadEditRequest bob;
            bob.eventId = u"P-0001"_qs;
            bob.newPayload = u"{\"bob\":true}"_qs;
            bob.baseDigest = PayloadEditor::digest(original);
            bob.operatorName = u"bob"_qs;
            bob.reason = u"mine"_qs;
            bob.now = 1;
            QVERIFY(PayloadEditor(db).edit(bob).ok());
            dialog->findChild<QPlainTextEdit *>(u"editPayload"_qs)
                ->setPlainText(u"{\"alice\":true}"_qs);
            dialog->findChild<QLineEdit *>(u"editReason"_qs)->setText(u"also mine"_qs);
            dialog->findChild<QPushButton *>(u"editOk"_qs)->click();
        });
        QSignalSpy finished(window.editActions(), &EditActions::editFinished);
        window.editActions()->editSelectedAction()->trigger();
        QVERIFY(finished.wait(30000));
        const auto result = finished.at(0).at(0).value<PayloadEditResult>();
        QCOMPARE(result.outcome, PayloadEditResult::Outcome::Conflict);
        QTRY_COMPARE(answerer.box,
            u"P-0001 is no longer DEAD (it is PENDING: replayed or edited by someone else since "
            "you opened it): nothing edited"_qs);
        QCOMPARE(payloadOf(db, u"P-0001"_qs), u"{\"bob\":true}"_qs);
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM payload_revision"_qs), 1);
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM replay_log"_qs), 1);
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
            QTRY_COMPARE(window.eventModel()->rowCount(), 3);
            QVERIFY(window.selectEvent(u"P-0001"_qs));
            QAction *edit = window.editActions()->editSelectedAction();
            QVERIFY(!edit->isEnabled());
            QVERIFY2(edit->toolTip().contains(u"Read-only"_qs), qPrintable(edit->toolTip()));
        }
        // A version 2 schema: no payload_revision; disabled, saying what to run.
        const QSqlDatabase db = setup->database();
        QSqlQuery(db).exec(u"DROP TABLE payload_revision"_qs);
        QSqlQuery(db).exec(
            u"UPDATE outbox_meta SET value = '2' WHERE \"key\" = 'schema_version'"_qs);
        MainWindow window(database->connect(), {});
        window.show();
        QTRY_COMPARE(window.eventModel()->rowCount(), 3);
        QTRY_VERIFY2(window.editActions()->refusal().contains(u"outboxctl migrate --db URL"_qs),
            qPrintable(window.editActions()->refusal()));
        QVERIFY(window.selectEvent(u"P-0001"_qs));
        QAction *edit = window.editActions()->editSelectedAction();
        QVERIFY(!edit->isEnabled());
        QVERIFY2(edit->toolTip().contains(u"outboxctl migrate"_qs), qPrintable(edit->toolTip()));
    }
};

OUTBOX_TEST_MAIN(TestEditWindow, QApplication)
#include "tst_editwindow.moc"
