#include "windowtoolbar.h"

#include "diagnosismonitor.h"
#include "healthmonitor.h"
#include "healthtiles.h"
#include "intervalbox.h"
#include "mainwindow.h"
#include "operatoractions.h"
#include "resolveactions.h"
#include "thresholdsdialog.h"

#include <QAction>
#include <QToolBar>

namespace {

// The tiles' thresholds, and the diagnosis' dead_events with them.
void editThresholds(MainWindow &window)
{
    ThresholdsDialog dialog(window.tiles()->thresholds(), &window);
    if (dialog.exec() != QDialog::Accepted)
        return;
    ThresholdsDialog::save(dialog.thresholds());
    window.tiles()->setThresholds(dialog.thresholds());
    window.diagnosis()->setTileThresholds(dialog.thresholds());
}

} // namespace

namespace WindowToolbar {

ToolbarActions build(MainWindow &window)
{
    QToolBar *toolbar = window.addToolBar(QObject::tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolbar"));
    toolbar->setMovable(false);
    ToolbarActions actions;
    actions.connect = toolbar->addAction(
        QObject::tr("Connect…"), &window, &MainWindow::connectRequested);
    actions.connect->setObjectName(QStringLiteral("connectAction"));
    actions.connect->setShortcut(QKeySequence::Open);
    toolbar->addSeparator();
    OperatorActions *writes = window.operatorActions();
    toolbar->addActions({writes->replaySelectedAction(), writes->replayMatchingAction(),
        window.resolveActions()->resolveSelectedAction(), writes->exportEventsAction(),
        writes->exportAuditAction()});
    toolbar->addSeparator();
    actions.thresholds = toolbar->addAction(
        QObject::tr("Thresholds…"), &window, [&window] { editThresholds(window); });
    HealthMonitor *monitor = window.monitor();
    actions.refresh
        = toolbar->addAction(QObject::tr("Refresh"), monitor, &HealthMonitor::refreshNow);
    actions.refresh->setObjectName(QStringLiteral("refreshAction"));
    actions.refresh->setShortcut(QKeySequence::Refresh); // F5
    actions.pause = toolbar->addAction(QObject::tr("Pause refresh"));
    actions.pause->setCheckable(true);
    QObject::connect(actions.pause, &QAction::toggled, monitor,
        [monitor](bool paused) { paused ? monitor->pause() : monitor->resume(); });
    actions.interval = new IntervalBox(monitor);
    actions.interval->setFocusPolicy(Qt::ClickFocus);
    toolbar->addWidget(actions.interval);
    return actions;
}

} // namespace WindowToolbar
