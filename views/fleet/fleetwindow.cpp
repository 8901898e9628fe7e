#include "fleetwindow.h"

#include "alertbar.h"
#include "connectionenvironment.h"
#include "desktopalerts.h"
#include "fleetmodel.h"
#include "fleetproxy.h"
#include "healthmonitor.h"
#include "plaintooltips.h"
#include "thresholdsdialog.h"

#include <QApplication>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QTableView>
#include <QVBoxLayout>

namespace {

QString outboxes(int n)
{
    return n == 1 ? FleetWindow::tr("1 outbox") : FleetWindow::tr("%1 outboxes").arg(n);
}

} // namespace

FleetWindow::FleetWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_model(new FleetModel(this))
    , m_proxy(new FleetProxy(this))
    , m_view(new QTableView)
    , m_alertBar(new AlertBar)
    , m_summary(new QLabel)
{
    PlainToolTips::install(); // tooltips quote servers, files and links: never markup
    setObjectName(QStringLiteral("fleetWindow"));
    setWindowTitle(tr("Outbox Health — fleet"));
    m_alerts = new DesktopAlerts(m_alertBar, this);
    m_model->setThresholds(ThresholdsDialog::load());
    m_proxy->setSourceModel(m_model);
    setupTable();
    auto *central = new QWidget;
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_alertBar);
    layout->addWidget(m_view, 1);
    setCentralWidget(central);
    m_summary->setObjectName(QStringLiteral("fleetSummary"));
    statusBar()->addWidget(m_summary, 1);
    setupMenus();
    connect(m_model, &FleetModel::outboxUpdated, this, &FleetWindow::onOutboxUpdated);
    connect(m_model, &FleetModel::loaded, this, &FleetWindow::onLoaded);
    connect(m_model, &FleetModel::loadFailed, this, &FleetWindow::openFailed);
    // After DesktopAlerts (connected first) saved the mute.
    connect(m_alertBar, &AlertBar::muteRequested, m_proxy, &FleetProxy::refreshMutes);
    resize(1240, 600);
}

FleetWindow::~FleetWindow() = default;

void FleetWindow::setupTable()
{
    m_view->setObjectName(QStringLiteral("fleetTable"));
    m_view->setModel(m_proxy);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setTabKeyNavigation(false); // Tab leaves the table; arrows move in it
    m_view->setAccessibleName(tr("Outboxes of the fleet"));
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideRight);
    m_view->verticalHeader()->hide();
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    QHeaderView *header = m_view->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(FleetModel::WorstColumn, QHeaderView::Stretch);
    header->setSectionResizeMode(FleetModel::DiagnosisColumn, QHeaderView::Stretch);
    // A double-click and Enter both activate a row (a double-click also emits doubleClicked:
    // connected too, it opened two windows).
    connect(m_view, &QTableView::activated, this,
        [this](const QModelIndex &index) { openRow(index.row()); });
    connect(m_view, &QWidget::customContextMenuRequested, this, &FleetWindow::showRowMenu);
}

void FleetWindow::setupMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->setObjectName(QStringLiteral("fleetFileMenu"));
    QAction *open = file->addAction(tr("Open &fleet…"), this, &FleetWindow::fleetRequested);
    open->setObjectName(QStringLiteral("openFleetAction"));
    file->addSeparator();
    file->addAction(tr("&Close"), QKeySequence::Close, this, &QWidget::close);
}

void FleetWindow::openFile(const QString &path)
{
    m_path = path;
    m_model->loadFile(path);
}

void FleetWindow::onLoaded()
{
    if (m_model->isUrlBookOnly()) {
        startPrometheus(m_prometheusUrl.isEmpty() ? m_model->prometheusUrl() : m_prometheusUrl);
        return;
    }
    setWindowTitle(tr("Outbox Health — fleet %1 (%2)")
                       .arg(QFileInfo(m_path).fileName(), outboxes(m_model->rowCount())));
    applyEnvironments();
    updateSummary();
    m_model->start();
    emit opened();
}

// The environment the operator gave each database in the Connect dialog (ConnectionEnvironment).
void FleetWindow::applyEnvironments()
{
    for (int row = 0; row < m_model->rowCount(); ++row) {
        if (!m_model->isConfigured(row))
            continue;
        const ConnectionEnvironment env
            = ConnectionEnvironment::forUrl(m_model->entryAt(row).url.toStorableString());
        m_model->setEnvironment(
            row, env.name, env.colour.isValid() ? env.colour.name() : QString());
    }
}

void FleetWindow::openRow(int viewRow)
{
    const int row = m_proxy->mapToSource(m_proxy->index(viewRow, 0)).row();
    if (row >= 0 && m_prometheus)
        openPrometheusRow(row);
    else if (row >= 0 && m_model->isConfigured(row))
        emit outboxOpenRequested(row);
}

void FleetWindow::showRowMenu(const QPoint &pos)
{
    const QModelIndex index = m_view->indexAt(pos);
    if (!index.isValid())
        return;
    const int row = m_proxy->mapToSource(index).row();
    if (!isOutboxRow(row))
        return;
    const QString name = nameAt(row);
    QMenu menu(this);
    menu.addAction(tr("Open %1").arg(name), this, [this, index] { openRow(index.row()); });
    QAction *mute = menu.addAction(tr("Mute alerts"));
    mute->setCheckable(true);
    mute->setChecked(AlertDecider::isMuted(name));
    connect(mute, &QAction::toggled, this, [this, name](bool muted) {
        AlertDecider::setMuted(name, muted);
        if (muted)
            m_alertBar->removeAlerts(name);
        m_proxy->refreshMutes();
    });
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

void FleetWindow::onOutboxUpdated(int row)
{
    const HealthMonitor *monitor = m_model->monitorAt(row);
    m_alerts->observe(m_model->nameAt(row), m_model->stateAt(row), m_model->alertFigureAt(row),
        monitor ? monitor->lastFailureDetail() : QString());
    updateSummary();
}

QString FleetWindow::summary() const
{
    return m_summary->text();
}

void FleetWindow::updateSummary()
{
    int counts[5] = {};
    int unconfigured = 0;
    const QAbstractItemModel *source = m_proxy->sourceModel();
    for (int row = 0; row < source->rowCount(); ++row) {
        ++counts[source->index(row, 0).data(FleetModel::SeverityRole).toInt()];
        unconfigured += isOutboxRow(row) ? 0 : 1;
    }
    QStringList parts;
    const auto add = [&parts](int n, const QString &what) {
        if (n > 0)
            parts << QStringLiteral("%1 %2").arg(n).arg(what);
    };
    add(counts[4] - unconfigured, tr("down"));
    add(unconfigured, tr("not configured"));
    add(counts[3], tr("red"));
    add(counts[2], tr("amber"));
    add(counts[1], tr("waiting"));
    add(counts[0], tr("healthy"));
    if (m_prometheus) {
        m_summary->setText(prometheusSummary(parts.join(QStringLiteral(", "))));
        return;
    }
    m_summary->setText(tr("%1: %2 — each read every %3 s on a connection of its own")
                           .arg(outboxes(m_model->rowCount()), parts.join(QStringLiteral(", ")))
                           .arg(FleetModel::DefaultIntervalMs / 1000));
}
