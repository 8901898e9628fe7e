// --help and --version as a user meets them: the version of project(VERSION ...), every
// subcommand listed, "Usage: outboxctl COMMAND [options]" with examples, the relay's
// --give-up-after explained and checked (and its old spelling --give-up-after-ms), duration
// options in units, Qt's parser errors in the program's own style, and the dashboard answering
// both without a display.
#include "outboxctlrun.h"
#include "testmain.h"

#include <QProcess>
#include <QRegularExpression>

namespace {

Run dashboardWithoutDisplay(const QStringList &arguments)
{
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(u"DISPLAY"_qs);
    environment.remove(u"WAYLAND_DISPLAY"_qs);
    environment.remove(u"QT_QPA_PLATFORM"_qs);
    process.setProcessEnvironment(environment);
    process.start(qEnvironmentVariable("OUTBOX_DASHBOARD"), arguments);
    Run run;
    if (!process.waitForFinished(60000))
        return run;
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = QString::fromUtf8(process.readAllStandardOutput()).split(QLatin1Char('\n'));
    run.err = QString::fromUtf8(process.readAllStandardError()).split(QLatin1Char('\n'));
    return run;
}

const QStringList commands
    = {u"init"_qs, u"simulate"_qs, u"check"_qs, u"relay"_qs, u"replay"_qs, u"generate"_qs,
        u"export"_qs, u"resolve"_qs, u"reopen"_qs, u"note"_qs, u"migrate"_qs, u"purge"_qs,
        u"diagnose"_qs, u"explain"_qs, u"errors"_qs, u"metrics"_qs, u"policy"_qs, u"serve"_qs};
// Commands that read no database.
const QStringList withoutDatabase = {u"policy"_qs};

} // namespace

class TestCliHelp : public QObject
{
    Q_OBJECT

private slots:
    void outboxctlPrintsItsVersion()
    {
        const Run run = outboxctl({u"--version"_qs});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out.constFirst(), u"outboxctl " OUTBOX_HEALTH_VERSION ""_qs);
    }

    void outboxctlHelpListsEveryCommandOnOneLine()
    {
        const Run run = outboxctl({u"--help"_qs});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out.constFirst(), u"Usage: outboxctl COMMAND [options]"_qs);
        for (const QString &command : commands) {
            const QStringList lines = run.out.filter(
                QRegularExpression(u"^  %1  +\\S"_qs.arg(QRegularExpression::escape(command))));
            QVERIFY2(lines.size() == 1, qPrintable(command + u" is not listed on one line"_qs));
        }
    }

    void commandHelpNamesTheCommandAndEndsWithExamples_data()
    {
        QTest::addColumn<QString>("command");
        for (const QString &command : commands)
            QTest::addRow("%s", qPrintable(command)) << command;
    }
    void commandHelpNamesTheCommandAndEndsWithExamples()
    {
        QFETCH(QString, command);
        const Run run = outboxctl({command, u"--help"_qs});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out.constFirst(), u"Usage: outboxctl %1 [options]"_qs.arg(command));
        // How to name the database: serve names many, each with its own --outbox; policy
        // reads none.
        const QString database
            = command == u"serve"_qs ? u"--outbox <NAME=URL>"_qs : u"--db <URL>"_qs;
        QCOMPARE(run.out.filter(database).isEmpty(), withoutDatabase.contains(command));
        const qsizetype examples = run.out.indexOf(u"Examples:"_qs);
        QVERIFY2(examples > 0, "no Examples: section");
        const QStringList after = run.out.mid(examples + 1).filter(u"  outboxctl "_qs + command);
        QVERIFY2(after.size() >= 2, "fewer than two examples");
    }

    void relayHelpTellsWhenItGivesUp()
    {
        const Run run = outboxctl({u"relay"_qs, u"--help"_qs});
        QCOMPARE(run.exitCode, 0);
        const QString help = run.out.join(u' ').simplified();
        QVERIFY2(help.contains(u"--give-up-after <DURATION>"_qs), qPrintable(help));
        QVERIFY(help.contains(u"default 1m; 0 = keep reconnecting forever"_qs));
        QVERIFY(!run.out.filter(u"  outboxctl relay "_qs).filter(u"--give-up-after "_qs).isEmpty());
        // The old spelling still works (below) but is no longer offered.
        QVERIFY2(!help.contains(u"-ms"_qs), qPrintable(help));
    }

    // Every duration option takes units; its old -ms spelling, hidden from --help, still takes
    // whole milliseconds.
    void durationsTakeUnits_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("error");
        const QStringList relay = {u"relay"_qs, u"--db"_qs, u"sqlite:/nonexistent/dir/r.sqlite"_qs};
        QTest::addRow("relay --give-up-after, no unit we know")
            << relay + QStringList {u"--give-up-after"_qs, u"soon"_qs}
            << u"outboxctl: relay: --give-up-after must be a duration such as 500ms, 30s, 10m, 2h "
               "or 7d (plain numbers are milliseconds), not 'soon'"_qs;
        QTest::addRow("relay --give-up-after beyond a day")
            << relay + QStringList {u"--give-up-after"_qs, u"25h"_qs}
            << u"outboxctl: relay: --give-up-after must be from 0 to 1d, not '25h'"_qs;
        QTest::addRow("relay: both spellings")
            << relay + QStringList {u"--lease"_qs, u"2s"_qs, u"--lease-ms"_qs, u"2000"_qs}
            << u"outboxctl: relay: --lease and --lease-ms are the same option; give one"_qs;
        QTest::addRow("check --max-oldest-pending")
            << QStringList {u"check"_qs, u"--db"_qs, u"sqlite:/nonexistent/x.sqlite"_qs,
                   u"--max-oldest-pending"_qs, u"-5m"_qs}
            << u"outboxctl: check: --max-oldest-pending must be a duration such as 500ms, 30s, "
               "10m, 2h or 7d (plain numbers are milliseconds), not '-5m'"_qs;
        QTest::addRow("export --older-than")
            << QStringList {u"export"_qs, u"--db"_qs, u"sqlite:/nonexistent/x.sqlite"_qs,
                   u"--older-than"_qs, u"1w"_qs}
            << u"outboxctl: export: --older-than must be a duration such as 500ms, 30s, 10m, 2h "
               "or 7d (plain numbers are milliseconds), not '1w'"_qs;
        QTest::addRow("serve --interval")
            << QStringList {u"serve"_qs, u"--outbox"_qs, u"a=sqlite:/nonexistent/x.sqlite"_qs,
                   u"--interval"_qs, u"500ms"_qs}
            << u"outboxctl: serve: --interval must be from 1 s to 1 d, in seconds (15) or as a "
               "duration (30s, 5m), not '500ms'"_qs;
    }
    void durationsTakeUnits()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, error);
        const Run run = outboxctl(arguments);
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.err, QStringList {error});
        QVERIFY(run.out.isEmpty());
    }

    // Qt's parser errors come out as the program's own: "outboxctl: COMMAND: ...", lower case,
    // no full stop; exit 2.
    void parserErrorsInTheProgramsStyle_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("error");
        for (const QString &command : commands)
            QTest::addRow("%s: unknown option", qPrintable(command)) << QStringList {
                command, u"--bogus"_qs} << u"outboxctl: %1: unknown option 'bogus'"_qs.arg(command);
        QTest::addRow("missing value") << QStringList {u"check"_qs, u"--db"_qs}
                                       << u"outboxctl: check: missing value after '--db'"_qs;
        QTest::addRow("value for a flag") << QStringList {u"errors"_qs,
            u"--json=yes"_qs} << u"outboxctl: errors: unexpected value after '--json'"_qs;
    }
    void parserErrorsInTheProgramsStyle()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, error);
        const Run run = outboxctl(arguments);
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.err, QStringList {error});
        QVERIFY(run.out.isEmpty());
    }

    void relayRefusesABadGiveUpTime_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addRow("negative") << u"-1"_qs;
        QTest::addRow("not a number") << u"soon"_qs;
        QTest::addRow("beyond a day") << u"86400001"_qs;
    }
    void relayRefusesABadGiveUpTime()
    {
        QFETCH(QString, value);
        const Run run = outboxctl({u"relay"_qs, u"--db"_qs,
            u"sqlite:/nonexistent/dir/relay.sqlite"_qs, u"--give-up-after-ms"_qs, value});
        QCOMPARE(run.exitCode, 2);
        // The old spelling keeps its message, now naming the value as every other one does.
        QCOMPARE(run.err,
            QStringList {u"outboxctl: relay: --give-up-after-ms must be a whole number from 0 to "
                         "86400000, not '%1'"_qs.arg(value)});
        QVERIFY(run.out.isEmpty());
    }

    void dashboardAnswersWithoutADisplay()
    {
        const Run version = dashboardWithoutDisplay({u"--version"_qs});
        QCOMPARE(version.exitCode, 0);
        QCOMPARE(version.out.constFirst(), u"outbox-dashboard " OUTBOX_HEALTH_VERSION ""_qs);

        const Run help = dashboardWithoutDisplay({u"--help"_qs});
        QCOMPARE(help.exitCode, 0);
        QCOMPARE(help.out.constFirst(), u"Usage: outbox-dashboard [options]"_qs);
        QVERIFY(!help.out.filter(u"--read-only"_qs).isEmpty());
        QVERIFY(!help.out.filter(u"--version"_qs).isEmpty());
        QVERIFY(help.out.contains(u"Examples:"_qs));
        // Every engine's URL is named, not only the first two (a MariaDB user reads --help).
        for (const QString &scheme : {u"sqlite:"_qs, u"postgresql://"_qs, u"mysql://"_qs,
                 u"mariadb://"_qs})
            QVERIFY2(!help.out.filter(scheme).isEmpty(), qPrintable(scheme));
        for (const QString &option : {u"--search"_qs, u"--state"_qs, u"--sort"_qs})
            QVERIFY2(!help.out.filter(option).isEmpty(), qPrintable(option));
    }

    // A wrong view option is refused before any window (or display) is needed.
    void dashboardRefusesABadViewWithoutADisplay_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("error");
        QTest::addRow("state") << QStringList {u"--state"_qs, u"sleeping"_qs}
                               << u"outbox-dashboard: unknown state \"sleeping\" (one of: any, "
                                  "pending, due, scheduled, in-flight, lease-expired, delivered, "
                                  "dead, resolved)"_qs;
        QTest::addRow("sort column")
            << QStringList {u"--sort"_qs, u"colour:desc"_qs}
            << u"outbox-dashboard: unknown sort column \"colour\" (one of: event-id, type, "
               "failures, age, next-attempt, error)"_qs;
        QTest::addRow("sort order") << QStringList {u"--sort"_qs, u"age:sideways"_qs}
                                    << u"outbox-dashboard: unknown sort order \"sideways\" (asc "
                                       "or desc)"_qs;
        // A link as the one argument (the desktop's outbox-health: URL scheme).
        QTest::addRow("link with a password")
            << QStringList {u"outbox-health:open?db=postgresql://ops:s3cret@db/orders&state=dead"_qs}
            << u"outbox-dashboard: the link's \"db\" holds a password: a link never carries one "
               "(use ~/.pgpass or PGPASSWORD)"_qs;
        QTest::addRow("link with a bad state")
            << QStringList {u"outbox-health:open?db=sqlite:x.sqlite&state=sleeping"_qs}
            << u"outbox-dashboard: unknown state \"sleeping\" (one of: any, pending, due, "
               "scheduled, in-flight, lease-expired, delivered, dead, resolved)"_qs;
        QTest::addRow("link of another scheme")
            << QStringList {u"https://ops:s3cret@example.com/"_qs}
            << u"outbox-dashboard: not an outbox-health: link (its scheme is https:)"_qs;
        QTest::addRow("link beside options")
            << QStringList {u"--read-only"_qs, u"outbox-health:open?state=dead"_qs}
            << u"outbox-dashboard: a link is the one argument: no options beside it"_qs;
        QTest::addRow("link of 8 KiB and more")
            << QStringList {u"outbox-health:open?search="_qs + QString(9000, u'a')}
            << u"outbox-dashboard: the link is longer than 8192 characters (9026)"_qs;
    }
    void dashboardRefusesABadViewWithoutADisplay()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, error);
        const Run run = dashboardWithoutDisplay(arguments);
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.err.constFirst(), error);
        QVERIFY(!run.err.join(u'\n').contains(u"s3cret"_qs));
    }
};

OUTBOX_TEST_MAIN(TestCliHelp, QCoreApplication)
#include "tst_cli_help.moc"
