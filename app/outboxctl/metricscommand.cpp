// outboxctl metrics --db URL [--profile NAME|PATH] [--outbox NAME] [--now MS] [--openmetrics]
// [--textfile PATH] [--expose-db-url]: one health snapshot in the Prometheus text exposition
// format (OpenMetrics with --openmetrics), read-only; outbox_info's db label (the URL without
// its password) only with --expose-db-url. --textfile writes it atomically for node_exporter's
// textfile collector (a temporary file in the same directory, then a rename). Exit 0 when written;
// 1 when the outbox could not be read (outbox_up 0 is written, and the reason goes to stderr); 2 on
// bad arguments, with nothing written.
#include "cdcreport.h"
#include "cli.h"
#include "healthquery.h"
#include "metricstext.h"
#include "profileregistry.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QSaveFile>
#include <QTextStream>

namespace {

// The outbox's name by default: the database's (PostgreSQL) or the file's base name (SQLite).
QString defaultName(const DatabaseUrl &url)
{
    return url.isFile() ? QFileInfo(url.path()).completeBaseName() : url.databaseName();
}

bool writeTextfile(const QString &path, const QString &text, QString *error)
{
    QSaveFile file(path); // a temporary file beside it, renamed over it on commit
    if (!file.open(QIODevice::WriteOnly)) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    file.write(text.toUtf8());
    if (!file.commit()) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace

int runMetrics(const QStringList &arguments)
{
    QCommandLineParser parser;
    Cli::addDatabaseOptions(parser);
    parser.addOption({u"outbox"_qs,
        u"The outbox label's value (default: the database's or the file's name)."_qs, u"NAME"_qs});
    Cli::addNowOption(parser, u"The time to judge at"_qs);
    parser.addOption({u"openmetrics"_qs, u"Write OpenMetrics 1.0 instead."_qs});
    parser.addOption({u"expose-db-url"_qs,
        u"Give outbox_info a db label: the database URL without its password (for the alert "
        "rules' links to the dashboard)."_qs});
    CdcReport::addSlotOption(parser);
    parser.addOption({u"textfile"_qs,
        u"Write to this file atomically (node_exporter's textfile collector) instead of stdout."_qs,
        u"PATH"_qs});
    int exitCode = Cli::Ok;
    if (!Cli::parse(parser, u"metrics"_qs, arguments, &exitCode))
        return exitCode;

    QString error;
    qint64 now = 0;
    if (!Cli::requireDatabase(parser, &error) || !Cli::readNow(parser, &now, &error))
        return Cli::fail(u"metrics: "_qs + error);
    const DatabaseUrl url = Cli::databaseUrl(parser, &error);
    if (!url.isValid())
        return Cli::fail(error);
    OutboxMetrics outbox;
    outbox.outbox = parser.isSet(u"outbox"_qs) ? parser.value(u"outbox"_qs) : defaultName(url);
    if (outbox.outbox.trimmed().isEmpty())
        return Cli::fail(u"metrics: --outbox must not be empty"_qs);
    if (parser.isSet(u"expose-db-url"_qs))
        outbox.db = url.toStorableString();
    const QString textfile = parser.value(u"textfile"_qs);
    if (parser.isSet(u"textfile"_qs)
        && (textfile.isEmpty() || !QFileInfo(QFileInfo(textfile).absolutePath()).isDir()))
        return Cli::fail(
            QStringLiteral("metrics: --textfile: no such directory for '%1'").arg(textfile));

    // A bad --profile or --cdc-slot is bad input (exit 2, nothing written), not an outbox that
    // is down.
    QString slot;
    if ((parser.isSet(u"profile"_qs)
            && !ProfileRegistry::resolve(parser.value(u"profile"_qs).trimmed(), &error))
        || !CdcReport::readSlot(parser, nullptr, &slot, &error))
        return Cli::fail(u"metrics: "_qs + error);

    QElapsedTimer timer;
    timer.start();
    std::optional<OutboxProfile> profile; // metrics never writes to the database
    const auto connection
        = Cli::openWithProfile(url, Cli::outboxOptions(true), parser, &profile, &error);
    if (connection) {
        HealthQuery::Options query = HealthQuery::Options::fromEnvironment();
        query.profile = &*profile;
        query.cdcSlot = OutboxProfile::cdcSlotFor(slot, profile);
        outbox.snapshot = HealthQuery::compute(connection->database(), now, &error, query);
    }
    outbox.snapshotSeconds = double(timer.nsecsElapsed()) / 1e9;

    const auto format = parser.isSet(u"openmetrics"_qs) ? MetricsText::Format::OpenMetrics
                                                        : MetricsText::Format::Prometheus;
    const QString text
        = MetricsText::render({outbox}, QStringLiteral(OUTBOX_HEALTH_VERSION), format);
    QString writeError;
    if (textfile.isEmpty())
        QTextStream(stdout) << text;
    else if (!writeTextfile(textfile, text, &writeError))
        return Cli::fail(u"metrics: "_qs + writeError);
    if (!outbox.snapshot) {
        Cli::fail(QStringLiteral("metrics: reading %1: %2 (outbox_up 0 written)")
                      .arg(url.toDisplayString(), error));
        return Cli::CheckFailed;
    }
    return Cli::Ok;
}
