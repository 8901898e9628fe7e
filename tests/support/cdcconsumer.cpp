#include "cdcconsumer.h"

#include <QAtomicInteger>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QThread>
#include <QVersionNumber>

namespace {

// The highest /usr/lib/postgresql/<version>/bin/pg_recvlogical.
QString packagedClient()
{
    QString best;
    QVersionNumber bestVersion;
    const QDir root(QStringLiteral("/usr/lib/postgresql"));
    for (const QString &version : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QString path = root.filePath(version + QStringLiteral("/bin/pg_recvlogical"));
        const QVersionNumber number = QVersionNumber::fromString(version);
        if (QFileInfo(path).isExecutable() && number > bestVersion) {
            best = path;
            bestVersion = number;
        }
    }
    return best;
}

} // namespace

QString CdcConsumer::clientPath()
{
    const QString bindir = qEnvironmentVariable("PG_BINDIR");
    const QString fromServer = bindir + QStringLiteral("/pg_recvlogical");
    if (!bindir.isEmpty() && QFileInfo(fromServer).isExecutable())
        return fromServer;
    const QString inPath = QStandardPaths::findExecutable(QStringLiteral("pg_recvlogical"));
    return inPath.isEmpty() ? packagedClient() : inPath;
}

CdcConsumer::CdcConsumer(const QString &url, const QString &table)
    : m_url(url)
{
    static QAtomicInteger<int> counter;
    const QString suffix = QStringLiteral("%1_%2")
                               .arg(QCoreApplication::applicationPid())
                               .arg(counter.fetchAndAddRelaxed(1));
    m_slot = QStringLiteral("outbox_test_slot_") + suffix;
    m_publication = QStringLiteral("outbox_test_pub_") + suffix;
    OpenOptions options;
    options.validateSchema = false;
    m_connection = DbConnection::open(DatabaseUrl::parse(url, &m_error), options, &m_error);
    if (!m_connection)
        return;
    if (exec(QStringLiteral("CREATE PUBLICATION %1 FOR TABLE %2").arg(m_publication, table)))
        exec(QStringLiteral("SELECT pg_create_logical_replication_slot('%1', 'pgoutput')")
                 .arg(m_slot));
}

CdcConsumer::~CdcConsumer()
{
    stop();
    if (m_connection)
        drop();
}

bool CdcConsumer::exec(const QString &sql)
{
    QSqlQuery query(m_connection->database());
    if (query.exec(sql))
        return true;
    m_error = sql + QStringLiteral(": ") + query.lastError().text();
    return false;
}

// The server releases the slot a moment after the client exits: until then it refuses to
// drop it as active, so the drop is retried for a few seconds.
void CdcConsumer::drop()
{
    QDeadlineTimer deadline(10000);
    const QString dropSlot
        = QStringLiteral("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
                         " WHERE slot_name = '%1'")
              .arg(m_slot);
    while (!exec(dropSlot) && !deadline.hasExpired())
        QThread::msleep(50);
    exec(QStringLiteral("DROP PUBLICATION IF EXISTS ") + m_publication);
}

bool CdcConsumer::start()
{
    const QString client = clientPath();
    if (client.isEmpty()) {
        m_error = QStringLiteral("no pg_recvlogical in PATH or /usr/lib/postgresql/*/bin");
        return false;
    }
    // Status every second, so the confirmed position follows within about a second.
    m_client.setProgram(client);
    m_client.setArguments({QStringLiteral("--dbname=") + m_url, QStringLiteral("--slot=") + m_slot,
        QStringLiteral("--start"), QStringLiteral("--no-loop"), QStringLiteral("--file=-"),
        QStringLiteral("--status-interval=1"), QStringLiteral("--fsync-interval=1"),
        QStringLiteral("--option=proto_version=1"),
        QStringLiteral("--option=publication_names=") + m_publication});
    m_client.setStandardOutputFile(QProcess::nullDevice());
    m_client.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_client.start();
    if (m_client.waitForStarted(10000))
        return true;
    m_error = client + QStringLiteral(": ") + m_client.errorString();
    return false;
}

void CdcConsumer::stop()
{
    if (m_client.state() == QProcess::NotRunning)
        return;
    m_client.terminate();
    if (!m_client.waitForFinished(10000)) {
        m_client.kill();
        m_client.waitForFinished(5000);
    }
}

QString routerOutboxTableSql()
{
    return QStringLiteral(
        "CREATE TABLE outbox (id uuid PRIMARY KEY, aggregatetype varchar(255) NOT NULL,"
        " aggregateid varchar(255) NOT NULL, type varchar(255) NOT NULL, payload jsonb)");
}

bool insertRouterEvents(const QSqlDatabase &db, int count)
{
    QSqlQuery query(db);
    const QString sql
        = QStringLiteral("INSERT INTO outbox SELECT gen_random_uuid(), 'order', i::text,"
                         " 'OrderCreated', jsonb_build_object('n', i, 'pad', repeat('x', 1000))"
                         " FROM generate_series(1, %1) i")
              .arg(count);
    if (query.exec(sql))
        return true;
    qWarning("%s: %s", qPrintable(sql), qPrintable(query.lastError().text()));
    return false;
}
