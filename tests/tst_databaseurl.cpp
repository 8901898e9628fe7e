// The database URLs a user types on the command line or in the settings dialog: what is
// accepted, the message that names what is wrong otherwise, and that a password written into
// a URL is never shown.
#include "databaseurl.h"
#include "dbconnection.h"
#include "plaintext.h"
#include "sqldialect.h"
#include "testmain.h"

#include <QElapsedTimer>

Q_DECLARE_METATYPE(Engine)

class TestDatabaseUrl : public QObject
{
    Q_OBJECT

private slots:
    void acceptsValidUrls_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<Engine>("engine");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("password");
        QTest::addColumn<QString>("database");

        using E = Engine;
        QTest::addRow("sqlite relative path")
            << u"sqlite:outbox.sqlite"_qs << E::Sqlite << u"outbox.sqlite"_qs << QString() << 5432
            << QString() << QString() << QString();
        QTest::addRow("sqlite relative path in a folder")
            << u"sqlite:data/outbox.sqlite"_qs << E::Sqlite << u"data/outbox.sqlite"_qs << QString()
            << 5432 << QString() << QString() << QString();
        QTest::addRow("sqlite absolute path")
            << u"sqlite:/var/lib/outbox/outbox.sqlite"_qs << E::Sqlite
            << u"/var/lib/outbox/outbox.sqlite"_qs << QString() << 5432 << QString() << QString()
            << QString();
        QTest::addRow("sqlite:/// absolute path")
            << u"sqlite:///var/lib/outbox/outbox.sqlite"_qs << E::Sqlite
            << u"/var/lib/outbox/outbox.sqlite"_qs << QString() << 5432 << QString() << QString()
            << QString();
        QTest::addRow("surrounding blanks are ignored")
            << u"  sqlite:outbox.sqlite \n"_qs << E::Sqlite << u"outbox.sqlite"_qs << QString()
            << 5432 << QString() << QString() << QString();
        QTest::addRow("postgresql host and database")
            << u"postgresql://db.example.org/orders"_qs << E::PostgreSql << QString()
            << u"db.example.org"_qs << 5432 << QString() << QString() << u"orders"_qs;
        QTest::addRow("postgresql with user")
            << u"postgresql://relay@db.example.org/orders"_qs << E::PostgreSql << QString()
            << u"db.example.org"_qs << 5432 << u"relay"_qs << QString() << u"orders"_qs;
        QTest::addRow("postgresql with port")
            << u"postgresql://127.0.0.1:55432/orders"_qs << E::PostgreSql << QString()
            << u"127.0.0.1"_qs << 55432 << QString() << QString() << u"orders"_qs;
        QTest::addRow("postgresql with user, password and port")
            << u"postgresql://relay:s3cret@db.example.org:6543/orders"_qs << E::PostgreSql
            << QString() << u"db.example.org"_qs << 6543 << u"relay"_qs << u"s3cret"_qs
            << u"orders"_qs;
        QTest::addRow("postgres:// alias")
            << u"postgres://relay@localhost/orders"_qs << E::PostgreSql << QString()
            << u"localhost"_qs << 5432 << u"relay"_qs << QString() << u"orders"_qs;
        QTest::addRow("mysql host and database")
            << u"mysql://db.example.org/orders"_qs << E::MySql << QString() << u"db.example.org"_qs
            << 3306 << QString() << QString() << u"orders"_qs;
        QTest::addRow("mariadb:// alias with user, password and port")
            << u"mariadb://ops:s3cret@10.0.0.5:3307/orders"_qs << E::MySql << QString()
            << u"10.0.0.5"_qs << 3307 << u"ops"_qs << u"s3cret"_qs << u"orders"_qs;
        QTest::addRow("mysql with options")
            << u"mysql://ops@db.example.org/orders?ssl-mode=REQUIRED&ssl-ca=/etc/ca.pem"_qs
            << E::MySql << QString() << u"db.example.org"_qs << 3306 << u"ops"_qs << QString()
            << u"orders"_qs;
    }
    void acceptsValidUrls()
    {
        QFETCH(QString, text);
        QFETCH(Engine, engine);
        QFETCH(QString, path);
        QFETCH(QString, host);
        QFETCH(int, port);
        QFETCH(QString, user);
        QFETCH(QString, password);
        QFETCH(QString, database);

        QString error;
        const DatabaseUrl url = DatabaseUrl::parse(text, &error);
        QVERIFY2(url.isValid(), qPrintable(error));
        QCOMPARE(url.engine(), engine);
        QCOMPARE(url.isFile(), engine == Engine::Sqlite);
        if (url.isFile()) {
            QCOMPARE(url.path(), path);
        } else {
            QCOMPARE(url.host(), host);
            QCOMPARE(url.port(), port);
            QCOMPARE(url.user(), user);
            QCOMPARE(url.password(), password);
            QCOMPARE(url.databaseName(), database);
        }
    }

    void rejectsMalformedUrlsNamingTheCause_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("mentions");

        QTest::addRow("empty") << QString() << QStringList {u"empty"_qs};
        QTest::addRow("only blanks") << u"   "_qs << QStringList {u"empty"_qs};
        QTest::addRow("unknown scheme oracle") << u"oracle://relay@db.example.org/orders"_qs
                                               << QStringList {u"scheme"_qs, u"'oracle'"_qs};
        QTest::addRow("no scheme at all")
            << u"outbox.sqlite"_qs << QStringList {u"scheme"_qs, u"outbox.sqlite"_qs};
        QTest::addRow("sqlite without path")
            << u"sqlite:"_qs << QStringList {u"without a file path"_qs};
        QTest::addRow("sqlite:// without path")
            << u"sqlite://"_qs << QStringList {u"without a file path"_qs};
        QTest::addRow("postgresql without host")
            << u"postgresql:///orders"_qs << QStringList {u"without a host"_qs};
        QTest::addRow("postgresql without database name")
            << u"postgresql://db.example.org"_qs << QStringList {u"without a database name"_qs};
        QTest::addRow("postgresql with empty database name")
            << u"postgresql://db.example.org/"_qs << QStringList {u"without a database name"_qs};
        QTest::addRow("postgresql with non-numeric port")
            << u"postgresql://db.example.org:abc/orders"_qs << QStringList {u"port"_qs};
        QTest::addRow("postgresql with port out of range")
            << u"postgresql://db.example.org:70000/orders"_qs << QStringList {u"port"_qs};
        QTest::addRow("postgresql with port 0")
            << u"postgresql://db.example.org:0/orders"_qs << QStringList {u"port"_qs};
        QTest::addRow("postgresql with a query string")
            << u"postgresql://db.example.org/orders?sslmode=require"_qs
            << QStringList {u"query"_qs};
        QTest::addRow("postgresql with a fragment")
            << u"postgresql://db.example.org/orders#x"_qs << QStringList {u"fragment"_qs};
        QTest::addRow("mysql with an unknown option naming the known ones")
            << u"mysql://db.example.org/orders?sslmode=require"_qs
            << QStringList {u"unknown option 'sslmode'"_qs, u"ssl-mode, ssl-ca"_qs};
        QTest::addRow("mysql with an option twice")
            << u"mysql://db.example.org/orders?ssl-mode=REQUIRED&ssl-mode=DISABLED"_qs
            << QStringList {u"option 'ssl-mode' twice"_qs};
        QTest::addRow("mysql with an option without a value")
            << u"mysql://db.example.org/orders?ssl-ca="_qs
            << QStringList {u"option 'ssl-ca' without a value"_qs};
        QTest::addRow("mariadb without a database name")
            << u"mariadb://db.example.org"_qs << QStringList {u"without a database name"_qs};
        QTest::addRow("mysql with a fragment")
            << u"mysql://db.example.org/orders#x"_qs << QStringList {u"fragment"_qs};
    }
    void rejectsMalformedUrlsNamingTheCause()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, mentions);

        QString error;
        const DatabaseUrl url = DatabaseUrl::parse(text, &error);
        QVERIFY(!url.isValid());
        QVERIFY(!url.isFile());
        for (const QString &mention : mentions)
            QVERIFY2(error.contains(mention),
                qPrintable(u"'%1' does not mention '%2'"_qs.arg(error, mention)));
    }

    // The schemes come from the dialects: each scheme of each engine opens that engine, a
    // server URL without a port takes the engine's own, and it shows by the first scheme.
    void everyDialectSchemeOpensItsEngine()
    {
        for (const SqlDialect *dialect : SqlDialect::all()) {
            for (const QString &scheme : dialect->urlSchemes()) {
                const QString text = dialect->can().fileDatabase
                    ? scheme + u":/tmp/outbox.db"_qs
                    : scheme + u"://db.example.org/orders"_qs;
                QString error;
                const DatabaseUrl url = DatabaseUrl::parse(text, &error);
                QVERIFY2(url.isValid(), qPrintable(text + u": "_qs + error));
                QCOMPARE(url.engine(), dialect->engine());
                QVERIFY(url.toDisplayString().startsWith(dialect->urlSchemes().constFirst()));
                if (!url.isFile()) {
                    QCOMPARE(url.port(), dialect->defaultPort());
                    QVERIFY(!url.toDisplayString().contains(u':' + QString::number(url.port())));
                }
            }
        }
    }

    // An unknown scheme is refused naming every scheme that would do.
    void unknownSchemeNamesTheEnginesSchemes()
    {
        QString error;
        QVERIFY(!DatabaseUrl::parse(u"oracle://relay@db.example.org/orders"_qs, &error).isValid());
        for (const SqlDialect *dialect : SqlDialect::all())
            QVERIFY2(error.contains(dialect->urlSchemes().constFirst()), qPrintable(error));
    }

    void parseToleratesNullErrorPointer()
    {
        QVERIFY(!DatabaseUrl::parse(u"oracle://x/y"_qs, nullptr).isValid());
        QVERIFY(DatabaseUrl::parse(u"sqlite:x.sqlite"_qs, nullptr).isValid());
    }

    // Anything that looks like a URL with credentials, anywhere in a message.
    void maskPasswordsInAnyText_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("masked");
        QTest::addRow("quoted argument")
            << u"check: unexpected argument 'postgresql://op:hunter2@db/orders'"_qs
            << u"check: unexpected argument 'postgresql://op:***@db/orders'"_qs;
        QTest::addRow("unencoded @ and / in the password")
            << u"x postgres://op:p@ss/w@rd@db/orders y"_qs << u"x postgres://op:***@db/orders y"_qs;
        QTest::addRow("other schemes too")
            << u"amqp://guest:guest@mq:5672/"_qs << u"amqp://guest:***@mq:5672/"_qs;
        QTest::addRow("two in one line")
            << u"a://u:p1@h b://v:p2@k"_qs << u"a://u:***@h b://v:***@k"_qs;
        QTest::addRow("no password")
            << u"postgresql://op@db/orders"_qs << u"postgresql://op@db/orders"_qs;
        QTest::addRow("a port is no password")
            << u"postgresql://db:5432/orders"_qs << u"postgresql://db:5432/orders"_qs;
        QTest::addRow("sqlite path") << u"sqlite:/tmp/a:b@c"_qs << u"sqlite:/tmp/a:b@c"_qs;
        QTest::addRow("a space in the password")
            << u"check: unexpected argument 'postgresql://op:my secret@db/orders'"_qs
            << u"check: unexpected argument 'postgresql://op:***@db/orders'"_qs;
        QTest::addRow("spaces, a quote and @ unencoded")
            << u"postgresql://op:it's a @ b@db/orders: refused"_qs
            << u"postgresql://op:***@db/orders: refused"_qs;
        QTest::addRow("percent-escapes") << u"postgresql://op:p%40ss%20w%2Frd@db/orders"_qs
                                         << u"postgresql://op:***@db/orders"_qs;
        QTest::addRow("a percent-escaped user") << u"postgresql://op%40corp:pw@db/orders"_qs
                                                << u"postgresql://op%40corp:***@db/orders"_qs;
        QTest::addRow("colons and slashes") << u"postgresql://op:a:b/c:d@db:5432/orders"_qs
                                            << u"postgresql://op:***@db:5432/orders"_qs;
        QTest::addRow("a password that starts like a port")
            << u"postgresql://op:5432/x@db/orders"_qs << u"postgresql://op:***@db/orders"_qs;
        QTest::addRow("a port, then an @ later in the message")
            << u"reading postgresql://db:5432/orders: no role \"x@corp\""_qs
            << u"reading postgresql://db:5432/orders: no role \"x@corp\""_qs;
        // A single backtracking regular expression gave up on this (the engine's limits) and
        // matched nothing, showing the password: a server notice can be that long.
        const QString tail = QString(100000, u'x');
        QTest::addRow("100,000 characters after the URL")
            << u"postgresql://op:hunter2@db/orders "_qs + tail
            << u"postgresql://op:***@db/orders "_qs + tail;
        QTest::addRow("two on separate lines")
            << u"a://u:p1@h\nb://v:p2@k"_qs << u"a://u:***@h\nb://v:***@k"_qs;
        // A server's words after the URL are no password: MariaDB quotes 'user'@'host'.
        QTest::addRow("MariaDB's 'user'@'host' after the URL")
            << u"mysql://x:pw@db/shop: Access denied for user 'x'@'localhost' (using password: YES)"_qs
            << u"mysql://x:***@db/shop: Access denied for user 'x'@'localhost' (using password: YES)"_qs;
        QTest::addRow("already masked, then an @") << u"mysql://x:***@db/shop: no role x@corp"_qs
                                                   << u"mysql://x:***@db/shop: no role x@corp"_qs;
    }
    void maskPasswordsInAnyText()
    {
        QFETCH(QString, text);
        QFETCH(QString, masked);
        QCOMPARE(DatabaseUrl::maskPasswords(text), masked);
    }

    // The password of a URL this process parsed is masked exactly, however the URL spells it,
    // and whatever '@' a server's message puts after it; nowhere else is text taken for it.
    void maskPasswordsOfParsedUrlsExactly_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("password"); // as the URL spells it
        QTest::addRow("plain") << u"mariadb://x:s3cret-pw@db/shop"_qs << u"s3cret-pw"_qs;
        QTest::addRow("percent-encoded @ and space")
            << u"postgresql://x:p%40ss%20wd@db/shop"_qs << u"p%40ss%20wd"_qs;
    }
    void maskPasswordsOfParsedUrlsExactly()
    {
        QFETCH(QString, url);
        QFETCH(QString, password);
        QString error;
        const DatabaseUrl parsed = DatabaseUrl::parse(url, &error);
        QVERIFY2(parsed.isValid(), qPrintable(error));
        const QString tail = u": role x@corp does not exist; user 'x'@'localhost'"_qs;
        const QString decoded = u"mysql://x:"_qs + parsed.password() + u"@db/shop"_qs + tail;
        for (const QString &text : QStringList {url + tail, decoded}) {
            const QString masked = DatabaseUrl::maskPasswords(text);
            QVERIFY2(masked.endsWith(u":***@db/shop"_qs + tail), qPrintable(masked));
            QVERIFY2(!masked.contains(password) && !masked.contains(parsed.password()),
                qPrintable(masked));
        }
    }

    void plainTextEscapesControlCharacters_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("escaped");
        QTest::addRow("terminal escape and carriage return")
            << u"E-1\x1b[2K\routboxctl: replayed 0 events"_qs
            << u"E-1\\x1b[2K\\routboxctl: replayed 0 events"_qs;
        QTest::addRow("newline and tab") << u"a\nb\tc"_qs << u"a\\nb\\tc"_qs;
        QTest::addRow("DEL and C1") << u"a\x7f\u009b"_qs << u"a\\x7f\\x9b"_qs;
        QTest::addRow("ordinary text and backslashes kept")
            << u"Zoë's C:\\path ✓"_qs << u"Zoë's C:\\path ✓"_qs;
        // Invisible format characters: an ID that reads "R-exe.jpg" is "R-\u202egpj.exe".
        QTest::addRow("right-to-left override") << u"R-\u202egpj.exe"_qs << u"R-\\u202egpj.exe"_qs;
        QTest::addRow("isolates and embeddings")
            << u"\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069"_qs
            << u"\\u202a\\u202b\\u202c\\u202d\\u2066\\u2067\\u2068\\u2069"_qs;
        QTest::addRow("zero-width, marks, BOM, soft hyphen")
            << u"a\u200bb\u200c\u200d\u200e\u200f\ufeff\u00ad"_qs
            << u"a\\u200bb\\u200c\\u200d\\u200e\\u200f\\ufeff\\u00ad"_qs;
        QTest::addRow("line and paragraph separators")
            << u"a\u2028b\u2029c"_qs << u"a\\u2028b\\u2029c"_qs;
        QTest::addRow("a tag beyond the BMP")
            << QString::fromUcs4(U"x\U000E0041y") << u"x\\U000e0041y"_qs;
        QTest::addRow("an unpaired surrogate") << QString(QChar(0xd800)) << u"\\ud800"_qs;
        QTest::addRow("an emoji beyond the BMP kept") << u"ok 😀"_qs << u"ok 😀"_qs;
        QTest::addRow("right-to-left letters kept") << u"שלום مرحبا"_qs << u"שלום مرحبا"_qs;
    }
    void plainTextEscapesControlCharacters()
    {
        QFETCH(QString, text);
        QFETCH(QString, escaped);
        QCOMPARE(PlainText::escaped(text), escaped);
        QCOMPARE(PlainText::escaped(escaped), escaped); // escaping twice changes nothing more
    }

    // A tooltip: markup escaped into rich text that renders it literally; other text plain.
    void plainTextToolTips_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("tip");
        QTest::addRow("markup")
            << u"<h1 style=\"color:red\">NOW</h1> & more"_qs
            << u"<p style='white-space:pre-wrap'>&lt;h1 style=&quot;color:red&quot;"
               "&gt;NOW&lt;/h1&gt; &amp; more</p>"_qs;
        QTest::addRow("markup over two lines")
            << u"<b>a</b>\nb"_qs
            << u"<p style='white-space:pre-wrap'>&lt;b&gt;a&lt;/b&gt;<br>b</p>"_qs;
        QTest::addRow("plain text stays plain")
            << u"line 1\nline  2 & 3"_qs << u"line 1\nline  2 & 3"_qs;
        QTest::addRow("controls escaped, newlines kept")
            << u"R-\u202egpj.exe\t\x1b\nx"_qs << u"R-\\u202egpj.exe\\t\\x1b\nx"_qs;
        QTest::addRow("empty") << QString() << QString();
    }
    void plainTextToolTips()
    {
        QFETCH(QString, text);
        QFETCH(QString, tip);
        QCOMPARE(PlainText::toolTip(text), tip);
    }

    // What outboxctl prints for a user to paste back (errors' --error-group, explain's replay
    // command) reads back through a POSIX shell unchanged.
    void plainTextShellQuoted_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("quoted");
        QTest::addRow("an ID stays bare") << u"GEN-0000000091"_qs << u"GEN-0000000091"_qs;
        QTest::addRow("a signature with spaces and <n>")
            << u"HTTP <n> Bad Request"_qs << u"'HTTP <n> Bad Request'"_qs;
        QTest::addRow("a quote inside") << u"can't parse"_qs << u"'can'\\''t parse'"_qs;
        QTest::addRow("a dollar is not expanded") << u"$HOME"_qs << u"'$HOME'"_qs;
        QTest::addRow("empty") << QString() << u"''"_qs;
    }
    void plainTextShellQuoted()
    {
        QFETCH(QString, text);
        QFETCH(QString, quoted);
        QCOMPARE(PlainText::shellQuoted(text), quoted);
    }

    void displayStringHidesThePassword_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("display");
        QTest::addColumn<QString>("password"); // must never appear in the display string

        QTest::addRow("user and password")
            << u"postgresql://relay:s3cret@db.example.org/orders"_qs
            << u"postgresql://relay:***@db.example.org/orders"_qs << u"s3cret"_qs;
        QTest::addRow("user, password and port")
            << u"postgresql://relay:s3cret@db.example.org:6543/orders"_qs
            << u"postgresql://relay:***@db.example.org:6543/orders"_qs << u"s3cret"_qs;
        QTest::addRow("postgres:// alias with password")
            << u"postgres://relay:hunter2@localhost/orders"_qs
            << u"postgresql://relay:***@localhost/orders"_qs << u"hunter2"_qs;
        QTest::addRow("password that is also a word of the URL")
            << u"postgresql://relay:orders@localhost/db"_qs
            << u"postgresql://relay:***@localhost/db"_qs << u"orders"_qs;
    }
    void displayStringHidesThePassword()
    {
        QFETCH(QString, text);
        QFETCH(QString, display);
        QFETCH(QString, password);

        QString error;
        const DatabaseUrl url = DatabaseUrl::parse(text, &error);
        QVERIFY2(url.isValid(), qPrintable(error));
        QCOMPARE(url.password(), password); // kept in memory for the connection
        QCOMPARE(url.toDisplayString(), display);
        QVERIFY(!url.toDisplayString().contains(password));
        QVERIFY(url.toDisplayString().contains(u"***"_qs));
    }

    void displayStringWithoutPassword_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("display");

        QTest::addRow("postgresql with user") << u"postgresql://relay@db.example.org/orders"_qs
                                              << u"postgresql://relay@db.example.org/orders"_qs;
        QTest::addRow("postgresql without user") << u"postgresql://db.example.org:6543/orders"_qs
                                                 << u"postgresql://db.example.org:6543/orders"_qs;
        QTest::addRow("postgres:// alias shown as postgresql://")
            << u"postgres://localhost/orders"_qs << u"postgresql://localhost/orders"_qs;
        QTest::addRow("sqlite") << u"sqlite:/var/lib/outbox/outbox.sqlite"_qs
                                << u"sqlite:/var/lib/outbox/outbox.sqlite"_qs;
    }
    void displayStringWithoutPassword()
    {
        QFETCH(QString, text);
        QFETCH(QString, display);

        QString error;
        const DatabaseUrl url = DatabaseUrl::parse(text, &error);
        QVERIFY2(url.isValid(), qPrintable(error));
        QCOMPARE(url.toDisplayString(), display);
        QVERIFY(!url.toDisplayString().contains(u"***"_qs));

        // What is shown can be pasted back and names the same database.
        const DatabaseUrl again = DatabaseUrl::parse(url.toDisplayString(), &error);
        QVERIFY2(again.isValid(), qPrintable(error));
        QCOMPARE(again.toDisplayString(), display);
        QCOMPARE(again.path(), url.path());
        QCOMPARE(again.host(), url.host());
        QCOMPARE(again.port(), url.port());
        QCOMPARE(again.user(), url.user());
        QCOMPARE(again.databaseName(), url.databaseName());
    }

    // The parse error is shown to the user too, so it must not repeat a password either.
    void parseErrorHidesThePassword_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addRow("bad port") << u"postgresql://relay:s3cret@db.example.org:abc/orders"_qs;
        QTest::addRow("port out of range")
            << u"postgresql://relay:s3cret@db.example.org:70000/orders"_qs;
        QTest::addRow("blank in host") << u"postgresql://relay:s3cret@db example.org/orders"_qs;
        QTest::addRow("query string") << u"postgresql://relay:s3cret@db.example.org/orders?x=1"_qs;
        QTest::addRow("no database name") << u"postgresql://relay:s3cret@db.example.org"_qs;
        QTest::addRow("mysql unknown option")
            << u"mysql://relay:s3cret@db.example.org/orders?password=s3cret"_qs;
        QTest::addRow("mysql option twice")
            << u"mysql://relay:s3cret@db.example.org/orders?ssl-ca=a&ssl-ca=a"_qs;
        QTest::addRow("mariadb bad port") << u"mariadb://relay:s3cret@db.example.org:x/orders"_qs;
    }
    void parseErrorHidesThePassword()
    {
        QFETCH(QString, text);

        QString error;
        QVERIFY(!DatabaseUrl::parse(text, &error).isValid());
        QVERIFY(!error.isEmpty());
        QVERIFY2(!error.contains(u"s3cret"_qs), qPrintable(error));
    }

    // The options in the URL's order; the display string keeps them and masks the password.
    void mySqlOptionsAreKeptInOrder()
    {
        QString error;
        const DatabaseUrl url = DatabaseUrl::parse(
            u"mariadb://ops:s3cret@db.example.org/orders?ssl-ca=/etc/ca.pem&ssl-mode=REQUIRED"_qs,
            &error);
        QVERIFY2(url.isValid(), qPrintable(error));
        QCOMPARE(url.option(u"ssl-mode"_qs), u"REQUIRED"_qs);
        QCOMPARE(url.option(u"ssl-ca"_qs), u"/etc/ca.pem"_qs);
        QCOMPARE(url.option(u"ssl-key"_qs), QString());
        QCOMPARE(url.options().value(0).first, u"ssl-ca"_qs);
        QCOMPARE(url.toDisplayString(),
            u"mysql://ops:***@db.example.org/orders?ssl-ca=/etc/ca.pem&ssl-mode=REQUIRED"_qs);
        QVERIFY(!url.toStorableString().contains(u"s3cret"_qs));
    }

    // TLS settings that parse but cannot be honoured are refused before any connection is
    // tried (port 1: nothing listens), in words that name the setting, never the password.
    void mySqlTlsSettingsRefusedBeforeConnecting_data()
    {
        QTest::addColumn<QString>("query");
        QTest::addColumn<QString>("mentions");
        QTest::addRow("VERIFY_CA") << u"ssl-mode=VERIFY_CA&ssl-ca=/etc/ca.pem"_qs
                                   << u"ssl-mode=VERIFY_CA is not supported"_qs;
        QTest::addRow("verify_identity, any case")
            << u"ssl-mode=verify_identity"_qs << u"ssl-mode=VERIFY_IDENTITY is not supported"_qs;
        QTest::addRow("unknown mode")
            << u"ssl-mode=PREFERRED"_qs << u"unknown ssl-mode 'PREFERRED'"_qs;
        QTest::addRow("DISABLED with a CA file")
            << u"ssl-mode=DISABLED&ssl-ca=/etc/ca.pem"_qs << u"choose one"_qs;
    }
    void mySqlTlsSettingsRefusedBeforeConnecting()
    {
        QFETCH(QString, query);
        QFETCH(QString, mentions);
        if (!SqlDialect::of(Engine::MySql).missingDriver().isEmpty())
            QSKIP("the MySQL driver is not installed");
        QString error;
        const DatabaseUrl url
            = DatabaseUrl::parse(u"mysql://ops:s3cret@127.0.0.1:1/orders?"_qs + query, &error);
        QVERIFY2(url.isValid(), qPrintable(error));
        QElapsedTimer timer;
        timer.start();
        QVERIFY(!DbConnection::open(url, {}, &error));
        QVERIFY2(error.contains(mentions), qPrintable(error));
        QVERIFY2(!error.contains(u"s3cret"_qs), qPrintable(error));
        QVERIFY(timer.elapsed() < 2000);
    }
};

OUTBOX_TEST_MAIN(TestDatabaseUrl, QCoreApplication)

#include "tst_databaseurl.moc"
