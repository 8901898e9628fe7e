// Real servers for the tests of the fleet through Prometheus (header-only: a test that includes
// it links Qt6::Network): `outboxctl serve` ($OUTBOXCTL), a Prometheus (the Debian package's
// binary) on a free loopback port with a temporary TSDB, each a Child stopped when it goes.
#pragma once

#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

// A free port on loopback (free when asked: the caller binds it soon after).
inline int freePort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

inline QByteArray httpGet(const QString &url)
{
    QNetworkAccessManager manager;
    QNetworkReply *reply = manager.get(QNetworkRequest(QUrl(url)));
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    reply->deleteLater();
    return reply->error() == QNetworkReply::NoError ? reply->readAll() : QByteArray();
}

// A child process, terminated when it goes out of scope.
struct Child
{
    QProcess process;
    ~Child()
    {
        process.terminate();
        if (!process.waitForFinished(20000))
            process.kill();
        process.waitForFinished();
    }
};

// `outboxctl serve --listen 127.0.0.1:0 ARGS`: its port once it prints it, else 0.
inline int startServe(Child *serve, const QStringList &arguments)
{
    serve->process.start(qEnvironmentVariable("OUTBOXCTL"),
        QStringList {u"serve"_qs, u"--listen"_qs, u"127.0.0.1:0"_qs} + arguments);
    const QRegularExpression listening(u"on http://127\\.0\\.0\\.1:(\\d+)/metrics"_qs);
    QString out;
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < 30000 && serve->process.state() != QProcess::NotRunning) {
        serve->process.waitForReadyRead(1000);
        out += QString::fromUtf8(serve->process.readAllStandardOutput());
        if (const QRegularExpressionMatch match = listening.match(out); match.hasMatch())
            return match.captured(1).toInt();
    }
    return 0;
}

// A real Prometheus scraping `targets` every second (`extra`: more of prometheus.yml, e.g.
// rule_files and alerting); its URL once it is ready, else empty.
inline QString startPrometheus(
    Child *prometheus, const QTemporaryDir &dir, const QList<int> &targets, const QString &extra)
{
    QStringList list;
    for (int port : targets)
        list << u"'127.0.0.1:"_qs + QString::number(port) + u'\'';
    QFile config(dir.filePath(u"prometheus.yml"_qs));
    if (!config.open(QIODevice::WriteOnly))
        return {};
    config.write(u"global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
                 "scrape_configs:\n  - job_name: outbox\n    static_configs:\n"
                 "      - targets: [%1]\n%2"_qs.arg(list.join(u", "_qs), extra)
                     .toUtf8());
    config.close();
    const QString url = u"http://127.0.0.1:"_qs + QString::number(freePort());
    prometheus->process.setProcessChannelMode(QProcess::MergedChannels);
    prometheus->process.start(QStandardPaths::findExecutable(u"prometheus"_qs),
        {u"--config.file="_qs + config.fileName(),
            u"--storage.tsdb.path="_qs + dir.filePath(u"tsdb"_qs),
            u"--web.listen-address="_qs + QUrl(url).authority(), u"--log.level=warn"_qs});
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < 30000 && prometheus->process.state() != QProcess::NotRunning) {
        if (httpGet(url + u"/-/ready"_qs).startsWith("Prometheus"))
            return url;
        QTest::qWait(200); // polling a process that answers no signal we could wait on
    }
    return {};
}
