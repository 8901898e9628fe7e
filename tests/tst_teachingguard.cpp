// A first run that teaches, and a teaching Start that cannot wipe a real outbox by accident:
// on a simulation database of more than 1,000 rows Start asks first, naming how many rows it
// deletes (the health snapshot's count, read on its worker), and Cancel changes nothing; the
// narration holds still while the pointer is over it; the demo's hint bar can be dismissed
// for good. Both engines where a database is involved.
#include "healthtiles.h"
#include "hintbar.h"
#include "mainwindow.h"
#include "outboxgenerator.h"
#include "teachpage.h"
#include "teachingsession.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QComboBox>
#include <QDateTime>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTimer>

namespace {

// Answers the Start guard when it appears (accept: "Delete and start"; else Cancel) and
// keeps its text; `seen` stays false when none appeared.
struct GuardAnswer
{
    bool accept = false;
    bool seen = false;
    QString text;
};

void answerGuardWhenShown(GuardAnswer *answer, QObject *context)
{
    auto *poll = new QTimer(context);
    poll->setInterval(20);
    QObject::connect(poll, &QTimer::timeout, context, [answer, poll] {
        for (QWidget *widget : QApplication::topLevelWidgets()) {
            auto *box = qobject_cast<QMessageBox *>(widget);
            if (!box || !box->isVisible() || box->objectName() != QLatin1String("startGuard"))
                continue;
            answer->seen = true;
            answer->text = box->text();
            for (QAbstractButton *button : box->buttons()) {
                if (answer->accept == (box->buttonRole(button) == QMessageBox::DestructiveRole)) {
                    button->click();
                    break;
                }
            }
            poll->deleteLater();
            return;
        }
    });
    poll->start();
}

qint64 rows(const QSqlDatabase &db)
{
    return scalar(db, QStringLiteral("SELECT COUNT(*) FROM delivery_outbox")).toLongLong();
}

} // namespace

class TestTeachingGuard : public QObject
{
    Q_OBJECT

private slots:
    void startAsksBeforeDeletingManyRows_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<int>("events");
        QTest::addColumn<bool>("asks");
        for (const char *engine : {"sqlite", "postgresql", "mysql"}) {
            QTest::addRow("%s: 1,500 rows ask", engine)
                << QString::fromLatin1(engine) << 1500 << true;
            QTest::addRow("%s: 1,000 rows do not", engine)
                << QString::fromLatin1(engine) << 1000 << false;
        }
    }
    void startAsksBeforeDeletingManyRows()
    {
        QFETCH(QString, engine);
        QFETCH(int, events);
        QFETCH(bool, asks);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup);
        QString error;
        QVERIFY2(OutboxGenerator(setup->database())
                     .generate({events, 5, QDateTime::currentMSecsSinceEpoch()}, &error),
            qPrintable(error));
        MainWindow window(database->connect(), {});
        window.show();
        auto *panel = window.findChild<TeachPage *>();
        QVERIFY(panel);
        QTRY_COMPARE(panel->rowCount().value_or(-1), qint64(events)); // the first snapshot
        auto *picker = panel->findChild<QComboBox *>(u"scenarioPicker"_qs);
        picker->setCurrentIndex(picker->findData(u"lost-ack"_qs));
        auto *start = panel->findChild<QPushButton *>(u"startButton"_qs);

        GuardAnswer cancel;
        answerGuardWhenShown(&cancel, &window); // stops with the window
        start->click(); // returns once the guard (if any) was answered
        QCOMPARE(cancel.seen, asks);
        if (asks) {
            const QString count = QLocale().toString(qint64(events)) + u" events"_qs;
            QVERIFY2(cancel.text.contains(count), qPrintable(cancel.text));
            QCOMPARE(window.session()->mode(), TeachingSession::Mode::Idle); // nothing started
            QCOMPARE(rows(setup->database()), qint64(events)); // nothing deleted

            GuardAnswer accept;
            accept.accept = true;
            answerGuardWhenShown(&accept, &window);
            start->click();
            QVERIFY(accept.seen);
        }
        QCOMPARE(window.session()->mode(), TeachingSession::Mode::Scenario);
        QTRY_VERIFY(rows(setup->database()) < 10); // the scenario's own few events
    }

    void narrationHoldsStillUnderThePointer()
    {
        FRESH_DATABASE(database, QStringLiteral("sqlite"));
        QVERIFY(database->initialise());
        MainWindow window(database->connect(), {});
        window.show();
        auto *panel = window.findChild<TeachPage *>();
        auto *narration = panel->findChild<QPlainTextEdit *>(u"narration"_qs);
        emit window.session()->narrated({u"t=0: first"_qs});
        QVERIFY(panel->narrationText().contains(u"first"_qs));
        QEvent enter(QEvent::Enter);
        QCoreApplication::sendEvent(narration->viewport(), &enter);
        emit window.session()->narrated({u"t=1: second"_qs});
        QVERIFY(!panel->narrationText().contains(u"second"_qs)); // held while read
        QCOMPARE(panel->heldLines(), 1);
        QEvent leave(QEvent::Leave);
        QCoreApplication::sendEvent(narration->viewport(), &leave);
        QVERIFY(panel->narrationText().contains(u"second"_qs));
        QCOMPARE(panel->heldLines(), 0);
    }

    // A demo left running keeps only the newest 500 lines of narration, the held ones too: a
    // pointer left resting on the narration for hours holds no more than the narration shows.
    void narrationKeepsItsNewestLines()
    {
        FRESH_DATABASE(database, QStringLiteral("sqlite"));
        QVERIFY(database->initialise());
        MainWindow window(database->connect(), {});
        window.show();
        auto *panel = window.findChild<TeachPage *>();
        auto *narration = panel->findChild<QPlainTextEdit *>(u"narration"_qs);
        auto lines = [](int from, int count) {
            QStringList result;
            for (int i = from; i < from + count; ++i)
                result << QStringLiteral("t=%1: step %1").arg(i);
            return result;
        };
        for (int batch = 0; batch < 30; ++batch)
            emit window.session()->narrated(lines(batch * 40, 40)); // 1,200 lines
        QCOMPARE(narration->blockCount(), TeachPage::NarrationLines);
        QVERIFY(panel->narrationText().endsWith(u"t=1199: step 1199"_qs));
        QVERIFY(!panel->narrationText().contains(u"t=699: "_qs));

        QEvent enter(QEvent::Enter);
        QCoreApplication::sendEvent(narration->viewport(), &enter);
        for (int batch = 0; batch < 30; ++batch)
            emit window.session()->narrated(lines(1200 + batch * 40, 40));
        QCOMPARE(panel->heldLines(), TeachPage::NarrationLines);
        const auto *note = panel->findChild<QLabel *>(u"narrationHeld"_qs);
        QVERIFY2(note->text().contains(u"1200 new line"_qs), qPrintable(note->text()));
        QEvent leave(QEvent::Leave);
        QCoreApplication::sendEvent(narration->viewport(), &leave);
        QCOMPARE(panel->heldLines(), 0);
        QCOMPARE(narration->blockCount(), TeachPage::NarrationLines);
        QVERIFY(panel->narrationText().endsWith(u"t=2399: step 2399"_qs));
    }

    void theDemoHintCanBeDismissedForGood()
    {
        QTemporaryDir settingsDir;
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir.path());
        FRESH_DATABASE(database, QStringLiteral("sqlite"));
        QVERIFY(database->initialise());
        WindowOptions demo;
        demo.startLiveRelay = true;
        {
            MainWindow window(database->connect(), demo);
            window.show();
            auto *hint = window.findChild<HintBar *>();
            QVERIFY(hint && hint->isVisible());
            QVERIFY(hint->text().contains(u"DEAD events are red"_qs));
            hint->dismiss();
            QVERIFY(!hint->isVisible());
        }
        MainWindow again(database->connect(), demo);
        QVERIFY(!again.findChild<HintBar *>());
        MainWindow notTheDemo(database->connect(), {});
        QVERIFY(!notTheDemo.findChild<HintBar *>());
    }
};

OUTBOX_TEST_MAIN(TestTeachingGuard, QApplication)
#include "tst_teachingguard.moc"
