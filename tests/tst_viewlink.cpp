// Links to a view (ViewLink): outbox-health:open?db=…&state=dead&event=EV-1 read into the
// options outbox-dashboard takes, written back the same, and every link that is not exactly one
// refused with a line that names the problem and never the password.
#include "testdata.h"
#include "testmain.h"
#include "viewlink.h"

#include <QFile>
#include <QRegularExpression>

class TestViewLink : public QObject
{
    Q_OBJECT

private slots:
    void readsTheIssuesExample()
    {
        QString error;
        const auto link = ViewLink::fromUrl(
            u"outbox-health:open?db=postgresql://ops@db/orders&state=dead&event=EV-1"_qs, &error);
        QVERIFY2(link, qPrintable(error));
        QCOMPARE(link->db, u"postgresql://ops@db/orders"_qs);
        QCOMPARE(link->state, u"dead"_qs);
        QCOMPARE(link->event, u"EV-1"_qs);
        QCOMPARE(link->toArguments(),
            QStringList({u"--db"_qs, u"postgresql://ops@db/orders"_qs, u"--state"_qs, u"dead"_qs,
                u"--select"_qs, u"EV-1"_qs}));
        QCOMPARE(link->toUrl(),
            u"outbox-health:open?db=postgresql://ops@db/orders&state=dead&event=EV-1"_qs);
    }

    void everyKeyIsAnOption()
    {
        QString error;
        const auto link = ViewLink::fromUrl(
            u"outbox-health:open?tab=errors&select=E-9&sort=failures:desc&search-mode=text&"
            "search=timeout&read-only=true&profile=pg-boss&db=sqlite:/var/lib/shop.sqlite&"
            "demo=false&cdc-slot=dbz"_qs,
            &error);
        QVERIFY2(link, qPrintable(error));
        QCOMPARE(link->toArguments(),
            QStringList({u"--db"_qs, u"sqlite:/var/lib/shop.sqlite"_qs, u"--profile"_qs,
                u"pg-boss"_qs, u"--read-only"_qs, u"--search"_qs, u"timeout"_qs,
                u"--search-mode"_qs, u"text"_qs, u"--sort"_qs, u"failures:desc"_qs, u"--tab"_qs,
                u"errors"_qs, u"--select"_qs, u"E-9"_qs, u"--cdc-slot"_qs, u"dbz"_qs}));
        const auto demo = ViewLink::fromUrl(u"outbox-health:open?demo=true"_qs, &error);
        QVERIFY2(demo, qPrintable(error));
        QCOMPARE(demo->toArguments(), QStringList({u"--demo"_qs}));
        const auto bare = ViewLink::fromUrl(u"outbox-health:open"_qs, &error);
        QVERIFY2(bare, qPrintable(error));
        QVERIFY(bare->toArguments().isEmpty()); // the last database, as with no options
    }

    // What a program may make of a link on its way: the scheme's case, "//open", a trailing &,
    // Go's urlquery (%3A%2F, + for a space) in the shipped alert rules.
    void readsTheFormsALinkTakes_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("db");
        QTest::addColumn<QString>("search");
        QTest::addRow("scheme in capitals")
            << u"OUTBOX-HEALTH:open?db=sqlite:a.sqlite"_qs << u"sqlite:a.sqlite"_qs << QString();
        QTest::addRow("//open") << u"outbox-health://open?db=sqlite:a.sqlite"_qs
                                << u"sqlite:a.sqlite"_qs << QString();
        QTest::addRow("trailing &")
            << u"outbox-health:open?db=sqlite:a.sqlite&"_qs << u"sqlite:a.sqlite"_qs << QString();
        QTest::addRow("urlquery")
            << u"outbox-health:open?db=postgresql%3A%2F%2Fops%40db%2Forders&search=time+out"_qs
            << u"postgresql://ops@db/orders"_qs << u"time out"_qs;
        QTest::addRow("UTF-8 and reserved characters")
            << u"outbox-health:open?search=%C3%A9v%C3%A9nement%20%26%3D%23%2B%25"_qs << QString()
            << u"événement &=#+%"_qs;
    }
    void readsTheFormsALinkTakes()
    {
        QFETCH(QString, text);
        QFETCH(QString, db);
        QFETCH(QString, search);
        QString error;
        const auto link = ViewLink::fromUrl(text, &error);
        QVERIFY2(link, qPrintable(error));
        QCOMPARE(link->db, db);
        QCOMPARE(link->search, search);
    }

    // Copy link writes what the link reads: every character a value may hold comes back.
    void roundTrips_data()
    {
        QTest::addColumn<QString>("event");
        QTest::addColumn<QString>("search");
        QTest::addRow("plain") << u"EV-1"_qs << u"7f3c"_qs;
        QTest::addRow("reserved characters") << u"a&b=c?d#e"_qs << u"50% + 1"_qs;
        QTest::addRow("spaces and accents") << u"commande n° 42"_qs << u"délai dépassé"_qs;
        QTest::addRow("a URL in a value") << u"https://example.com/x?y=1"_qs << u"a/b:c@d"_qs;
    }
    void roundTrips()
    {
        QFETCH(QString, event);
        QFETCH(QString, search);
        ViewLink link;
        link.db = u"postgresql://ops@db.internal:5433/orders"_qs;
        link.profile = u"/etc/outbox/my schema.profile"_qs;
        link.readOnly = true;
        link.search = search;
        link.searchMode = u"text"_qs;
        link.state = u"lease-expired"_qs;
        link.sort = u"next-attempt:desc"_qs;
        link.tab = u"events"_qs;
        link.event = event;
        QString error;
        const auto back = ViewLink::fromUrl(link.toUrl(), &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(*back, link);
        QVERIFY(link.toUrl().startsWith(
            u"outbox-health:open?db=postgresql://ops@db.internal:5433/orders&"_qs));
    }

    void neverWritesAPassword()
    {
        ViewLink link;
        link.db = u"postgresql://ops:s3cret@db/orders"_qs;
        QVERIFY2(!link.toUrl().contains(u"s3cret"_qs), qPrintable(link.toUrl()));
        QCOMPARE(link.toUrl(), u"outbox-health:open?db=postgresql://ops@db/orders"_qs);
    }

    void refusesWhatIsNotALink_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error");
        QTest::addRow("password in db")
            << u"outbox-health:open?db=postgresql://ops:s3cret@db/orders&state=dead"_qs
            << u"the link's \"db\" holds a password: a link never carries one (use ~/.pgpass or "
               "PGPASSWORD)"_qs;
        QTest::addRow("password percent-encoded")
            << u"outbox-health:open?db=postgresql%3A%2F%2Fops%3As3cret%40db%2Forders"_qs
            << u"the link's \"db\" holds a password: a link never carries one (use ~/.pgpass or "
               "PGPASSWORD)"_qs;
        QTest::addRow("password in another key")
            << u"outbox-health:open?search=postgresql://ops:s3cret@db/orders"_qs
            << u"the link's \"search\" holds a password: a link never carries one (use "
               "~/.pgpass or PGPASSWORD)"_qs;
        QTest::addRow("password as a key")
            << u"outbox-health:open?postgresql://ops:s3cret@db/orders=1"_qs
            << u"unknown key in the link (keys: db, demo, profile, read-only, search, "
               "search-mode, state, sort, tab, event, cdc-slot)"_qs;
        QTest::addRow("password as the verb")
            << u"outbox-health:postgresql://ops:s3cret@db/orders"_qs
            << u"the link does not say open: outbox-health:open?KEY=VALUE&…"_qs;
        QTest::addRow("unknown key")
            << u"outbox-health:open?colour=red"_qs
            << u"unknown key \"colour\" in the link (keys: db, demo, profile, read-only, search, "
               "search-mode, state, sort, tab, event, cdc-slot)"_qs;
        QTest::addRow("an option that writes a file")
            << u"outbox-health:open?screenshot=/home/ops/.bashrc"_qs
            << u"unknown key \"screenshot\" in the link (keys: db, demo, profile, read-only, "
               "search, search-mode, state, sort, tab, event, cdc-slot)"_qs;
        QTest::addRow("repeated key") << u"outbox-health:open?state=dead&state=due"_qs
                                      << u"\"state\" is given twice in the link"_qs;
        QTest::addRow("repeated under its other name")
            << u"outbox-health:open?event=A&select=B"_qs
            << u"\"event\" is given twice in the link"_qs;
        QTest::addRow("empty value")
            << u"outbox-health:open?state="_qs << u"the link's \"state\" has no value"_qs;
        QTest::addRow("blank value")
            << u"outbox-health:open?event=%20"_qs << u"the link's \"event\" has no value"_qs;
        QTest::addRow("no value") << u"outbox-health:open?read-only"_qs
                                  << u"the link's \"read-only\" has no value"_qs;
        QTest::addRow("not a boolean") << u"outbox-health:open?read-only=yes"_qs
                                       << u"the link's \"read-only\" is true or false"_qs;
        QTest::addRow("another verb")
            << u"outbox-health:replay?state=dead"_qs
            << u"the link does not say open: outbox-health:open?KEY=VALUE&…"_qs;
        QTest::addRow("another scheme") << u"https://example.com/?db=sqlite:a.sqlite"_qs
                                        << u"not an outbox-health: link (its scheme is https:)"_qs;
        QTest::addRow("a database URL") << u"sqlite:/var/lib/shop.sqlite"_qs
                                        << u"not an outbox-health: link (its scheme is sqlite:)"_qs;
        QTest::addRow("no scheme")
            << u"shop.sqlite"_qs
            << u"not a link: outbox-dashboard takes options (see --help) or one link, "
               "outbox-health:open?KEY=VALUE&…"_qs;
        QTest::addRow("a fragment") << u"outbox-health:open?event=EV#1"_qs
                                    << u"the link holds a # (in a value, write it %23)"_qs;
        const QString notText
            = u"the link's \"event\" is not percent-encoded UTF-8 text (a control "
              "character, a stray %, bytes that are not UTF-8)"_qs;
        QTest::addRow("stray percent sign") << u"outbox-health:open?event=100%"_qs << notText;
        QTest::addRow("bad escape") << u"outbox-health:open?event=%zz"_qs << notText;
        QTest::addRow("line feed")
            << u"outbox-health:open?event=EV%0Aoutbox-dashboard: ok"_qs << notText;
        QTest::addRow("escape") << u"outbox-health:open?event=%1B%5B2K"_qs << notText;
        QTest::addRow("not UTF-8") << u"outbox-health:open?event=%FF%FE"_qs << notText;
        QTest::addRow("8 KiB and more")
            << u"outbox-health:open?search="_qs + QString(ViewLink::MaxLength, u'a')
            << u"the link is longer than 8192 characters (8218)"_qs;
    }
    void refusesWhatIsNotALink()
    {
        QFETCH(QString, text);
        QFETCH(QString, error);
        QString why;
        QVERIFY(!ViewLink::fromUrl(text, &why));
        QCOMPARE(why, error);
        QVERIFY2(!why.contains(u"s3cret"_qs), qPrintable(why));
    }

    // The links the shipped alert rules make (their promtool tests hold what Prometheus makes
    // of them): each opens its rows of shop's database.
    void readsTheAlertRulesLinks()
    {
        QFile tests(TestData::path("prometheus/outbox-alerts.test.yml"));
        QVERIFY(tests.open(QIODevice::ReadOnly));
        static const QRegularExpression annotation(
            u"^\\s*dashboard: \"(.*)\"$"_qs, QRegularExpression::MultilineOption);
        int links = 0;
        int cdc = 0;
        for (const QRegularExpressionMatch &match :
            annotation.globalMatch(QString::fromUtf8(tests.readAll()))) {
            QString error;
            const auto link = ViewLink::fromUrl(match.captured(1), &error);
            QVERIFY2(link, qPrintable(match.captured(1) + u": "_qs + error));
            QVERIFY(!link->state.isEmpty() || !link->tab.isEmpty());
            if (!link->db.isEmpty())
                QCOMPARE(link->db, u"postgresql://monitor@db.internal/shop"_qs);
            // A replication slot's alert opens its finding and tile row (docs/cdc.md, Alerts).
            QCOMPARE(link->cdcSlot.isEmpty(), link->tab != u"diagnosis"_qs);
            cdc += link->cdcSlot.isEmpty() ? 0 : 1;
            ++links;
        }
        QCOMPARE(links, 12); // one per alert the tests expect
        QCOMPARE(cdc, 7);
    }

    void acceptsTheLongestLink()
    {
        const QString prefix = u"outbox-health:open?search="_qs;
        QString error;
        const auto link = ViewLink::fromUrl(
            prefix + QString(ViewLink::MaxLength - prefix.size(), u'a'), &error);
        QVERIFY2(link, qPrintable(error));
        QCOMPARE(link->search.size(), ViewLink::MaxLength - prefix.size());
    }
};

OUTBOX_TEST_MAIN(TestViewLink, QCoreApplication)
#include "tst_viewlink.moc"
