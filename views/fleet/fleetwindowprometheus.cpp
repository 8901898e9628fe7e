// FleetWindow through Prometheus (openPrometheus): the rows of PrometheusFleetModel in the same
// proxy, alerts and status line as a fleet read from its databases.
#include "fleetwindow.h"

#include "alertbar.h"
#include "desktopalerts.h"
#include "fleetmodel.h"
#include "fleetproxy.h"
#include "plaintext.h"
#include "prometheusclient.h"
#include "prometheusdetaildialog.h"
#include "prometheusfleetmodel.h"
#include "sparklinedelegate.h"
#include "thresholdsdialog.h"

#include <QDateTime>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>

void FleetWindow::openPrometheus(const QString &url, const QString &path)
{
    m_prometheusUrl = url;
    if (path.isEmpty()) {
        // Answered from the event loop, as a file read on its thread is: a caller that has not
        // started the loop yet (the command line) still sees opened() or openFailed().
        QMetaObject::invokeMethod(
            this, [this, url] { startPrometheus(url); }, Qt::QueuedConnection);
        return;
    }
    m_model->setUrlBookOnly(true); // the file names outboxes and their URLs; nothing is read
    openFile(path);
}

void FleetWindow::startPrometheus(const QString &text)
{
    QString error;
    const QUrl url = PrometheusClient::parseUrl(text, &error);
    if (!url.isValid()) {
        emit openFailed(error);
        return;
    }
    m_prometheus = new PrometheusFleetModel(url, this);
    m_prometheus->setThresholds(ThresholdsDialog::load());
    QStringList expected;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        if (m_model->isConfigured(row))
            expected << m_model->nameAt(row);
    }
    m_prometheus->setExpected(expected);
    m_proxy->setSourceModel(m_prometheus);
    auto *sparkline = new SparklineDelegate(m_view);
    m_view->setItemDelegateForColumn(PrometheusFleetModel::DeadTrendColumn, sparkline);
    m_view->setItemDelegateForColumn(PrometheusFleetModel::OldestTrendColumn, sparkline);
    m_view->horizontalHeader()->setSectionResizeMode(
        FleetModel::DiagnosisColumn, QHeaderView::ResizeToContents);
    connect(
        m_prometheus, &PrometheusFleetModel::refreshed, this, &FleetWindow::onPrometheusRefreshed);
    connect(m_prometheus, &PrometheusFleetModel::failed, this, &FleetWindow::updateSummary);
    const QString where
        = m_path.isEmpty() ? PrometheusClient::displayUrl(url) : QFileInfo(m_path).fileName();
    setWindowTitle(tr("Outbox Health — fleet %1 (through Prometheus)").arg(where));
    updateSummary();
    m_prometheus->start();
    emit opened();
}

// One read for every row: alerts as each row's own update would raise them, one status line. A
// row whose state and figure did not change is told again only after ObserveAgainMs (the
// decider's reminders need no more), so a thousand steady rows cost nothing per refresh.
void FleetWindow::onPrometheusRefreshed()
{
    constexpr qint64 ObserveAgainMs = 60000;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (int row = 0; row < m_prometheus->rowCount(); ++row) {
        const QString name = m_prometheus->nameAt(row);
        const AlertDecider::State state = m_prometheus->stateAt(row);
        const QString figure = m_prometheus->alertFigureAt(row);
        const QString key = QString::number(int(state)) + u' ' + figure;
        const auto last = m_observed.constFind(name);
        if (last != m_observed.cend() && last->first == key && now - last->second < ObserveAgainMs)
            continue;
        m_observed.insert(name, {key, now});
        m_alerts->observe(name, state, figure, QString());
    }
    updateSummary();
}

void FleetWindow::openPrometheusRow(int row)
{
    const int fileRow = m_model->rowOf(m_prometheus->nameAt(row));
    if (fileRow >= 0) {
        emit outboxOpenRequested(fileRow); // this workstation has its URL
        return;
    }
    auto *dialog = new PrometheusDetailDialog(m_prometheus, m_prometheus->nameAt(row), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_detail = dialog;
    dialog->show();
}

PrometheusDetailDialog *FleetWindow::detailDialog() const
{
    return m_detail;
}

QString FleetWindow::prometheusSummary(const QString &counts) const
{
    const QString url = PrometheusClient::displayUrl(m_prometheus->url());
    const int n = m_prometheus->rowCount();
    const QString outboxes = n == 1 ? tr("1 outbox") : tr("%1 outboxes").arg(n);
    if (!m_prometheus->lastError().isEmpty())
        return PlainText::escaped(m_prometheus->lastError())
            + tr(" — the figures shown are the last read");
    if (!m_prometheus->hasRead())
        return tr("Reading Prometheus at %1…").arg(url);
    return tr("%1: %2 — read through Prometheus at %3 every %4 s, no database connection")
        .arg(outboxes, counts, url)
        .arg(PrometheusFleetModel::DefaultIntervalMs / 1000);
}

QString FleetWindow::nameAt(int sourceRow) const
{
    return m_prometheus ? m_prometheus->nameAt(sourceRow) : m_model->nameAt(sourceRow);
}

bool FleetWindow::isOutboxRow(int sourceRow) const
{
    return m_prometheus || m_model->isConfigured(sourceRow);
}
