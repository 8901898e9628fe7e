// BoundedFile::read, the one way the programs read a file a user names (a profile, a fleet
// file, serve --config, a web config file): a regular file only, at most its limit, and never
// blocked by what stands at the path (a device, a FIFO without a writer, a directory).
#include "boundedfile.h"
#include "hostilefile.h"
#include "scratchfile.h"
#include "testmain.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <sys/stat.h>
#include <unistd.h>

class TestBoundedFile : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void readsARegularFileWhole_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<qint64>("limit");
        QTest::addRow("short text") << QByteArray("name = demo\n") << qint64(1024);
        QTest::addRow("empty file") << QByteArray() << qint64(1024);
        QTest::addRow("exactly the limit") << QByteArray(1024, 'x') << qint64(1024);
        QTest::addRow("larger than the first buffer")
            << QByteArray(300 * 1024, 'y') << qint64(1024 * 1024);
    }
    void readsARegularFileWhole()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(qint64, limit);
        const QString path
            = ScratchFile::write(m_dir, QString::fromLatin1(QTest::currentDataTag()), bytes);
        QVERIFY(!path.isEmpty());
        QString error;
        const std::optional<QByteArray> read
            = BoundedFile::read(path, limit, u"profile"_qs, &error);
        QVERIFY2(read, qPrintable(error));
        QCOMPARE(*read, bytes);
        QVERIFY(error.isEmpty());
    }

    // The permissions fstat saw on the descriptor that was read (a password check uses them
    // rather than looking at the path again).
    void reportsThePermissionsOfWhatItRead_data()
    {
        QTest::addColumn<int>("permissions");
        QTest::addRow("0600") << 0600;
        QTest::addRow("0644") << 0644;
        QTest::addRow("0400") << 0400;
    }
    void reportsThePermissionsOfWhatItRead()
    {
        QFETCH(int, permissions);
        const QString path
            = ScratchFile::write(m_dir, u"mode"_qs + QString::number(permissions, 8), "x");
        QVERIFY(::chmod(QFile::encodeName(path).constData(), mode_t(permissions)) == 0);
        QString error;
        BoundedFile::Status status;
        QVERIFY2(
            BoundedFile::read(path, 1024, u"fleet file"_qs, &error, &status), qPrintable(error));
        QCOMPARE(status.permissions, uint(permissions));
    }

    void refusesOneByteOverTheLimit()
    {
        const QString path = ScratchFile::write(m_dir, u"big"_qs, QByteArray(1025, 'x'));
        QString error;
        QVERIFY(!BoundedFile::read(path, 1024, u"profile"_qs, &error));
        QCOMPARE(error, u"profile %1 is larger than 1 KiB"_qs.arg(path));
    }

    // A 1 GiB (sparse) file is refused after its first limit + 1 bytes, not read or allocated
    // whole.
    void readsNoMoreThanTheLimitOfAHugeFile()
    {
        const QString path = m_dir.filePath(u"sparse"_qs);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QVERIFY(file.resize(qint64(1) << 30));
        file.close();
        QString error;
        QVERIFY(!BoundedFile::read(path, 256 * 1024, u"fleet file"_qs, &error));
        QCOMPARE(error, u"fleet file %1 is larger than 256 KiB"_qs.arg(path));
    }

    void refusesWhatIsNotARegularFile_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("message");
        QTest::addRow("/dev/zero")
            << u"/dev/zero"_qs << u"not a profile: %1 is a character device, not a file"_qs;
        QTest::addRow("a FIFO without a writer")
            << u"fifo"_qs << u"not a profile: %1 is a FIFO, not a file"_qs;
        QTest::addRow("a directory")
            << u"dir"_qs << u"not a profile: %1 is a directory, not a file"_qs;
        QTest::addRow("a missing file")
            << u"missing"_qs << u"cannot read profile %1: No such file or directory"_qs;
    }
    void refusesWhatIsNotARegularFile()
    {
        QFETCH(QString, kind);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString path = kind == u"missing"_qs ? dir.filePath(u"nothing-here.profile"_qs)
                                                   : HostileFile::make(dir, kind);
        QVERIFY(!path.isEmpty());
        QString error;
        QElapsedTimer clock;
        clock.start();
        QVERIFY(!BoundedFile::read(path, 1024, u"profile"_qs, &error));
        // A FIFO would block an ordinary open until a writer came; this returns (the test would
        // hang otherwise, so the time is only reported).
        qInfo("refused in %lld ms", clock.elapsed());
        QCOMPARE(error, message.arg(path));
    }

    // A regular file whose read fails (as root, a mode-000 file can still be read, so
    // /proc/self/mem stands in: its read at offset 0 fails with an I/O error).
    void namesAReadError()
    {
        QString error;
        QVERIFY(!BoundedFile::read(u"/proc/self/mem"_qs, 1024, u"profile"_qs, &error));
        QVERIFY2(error.startsWith(u"cannot read profile /proc/self/mem: "_qs), qPrintable(error));
    }

    void namesAnUnreadableFile()
    {
        if (::geteuid() == 0)
            QSKIP("root reads a mode-000 file (namesAReadError covers a failing read)");
        const QString path = ScratchFile::write(m_dir, u"secret"_qs, "x");
        QVERIFY(QFile::setPermissions(path, QFileDevice::Permissions()));
        QString error;
        QVERIFY(!BoundedFile::read(path, 1024, u"fleet file"_qs, &error));
        QCOMPARE(error, u"cannot read fleet file %1: Permission denied"_qs.arg(path));
    }

    void limitsAreSaidAsPeopleSayThem()
    {
        QCOMPARE(BoundedFile::limitText(1024 * 1024), u"1 MiB"_qs);
        QCOMPARE(BoundedFile::limitText(256 * 1024), u"256 KiB"_qs);
        QCOMPARE(BoundedFile::limitText(1000), u"1000 bytes"_qs);
    }
};

OUTBOX_TEST_MAIN(TestBoundedFile, QCoreApplication)
#include "tst_boundedfile.moc"
