#include "teachingdock.h"

#include "agehistogrammodel.h"
#include "healthmonitor.h"
#include "overviewpage.h"
#include "teachingpanel.h"
#include "teachingsession.h"

#include <QAction>
#include <QHeaderView>
#include <QMainWindow>
#include <QScrollArea>
#include <QScrollBar>
#include <QStatusBar>
#include <QTableView>

TeachingDock::TeachingDock(TeachingSession *session, HealthMonitor *monitor, QWidget *parent)
    : QDockWidget(tr("Teach: the retry lifecycle, step by step"), parent)
    , m_session(session)
    , m_panel(new TeachingPanel(session))
{
    setObjectName(QStringLiteral("teachingDock"));
    m_panel->watch(monitor); // the Start guard names the snapshot's row count
    auto *scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("teachingScroll"));
    scroll->setWidget(m_panel);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    setWidget(scroll);
    setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable
        | QDockWidget::DockWidgetFloatable);
    toggleViewAction()->setText(tr("&Teaching panel"));
    toggleViewAction()->setObjectName(QStringLiteral("teachingPanelAction"));
    // Bursts of relay activity arrive coalesced (TeachingSession), and become one refresh.
    connect(session, &TeachingSession::databaseChanged, monitor, &HealthMonitor::refreshNow);
}

void TeachingDock::follow(OverviewPage *overview, AgeHistogramModel *ages)
{
    connect(m_session, &TeachingSession::stateChanged, this, [this, overview, ages] {
        ages->setLogicalClock(m_session->isLogicalClock()); // "<= 1000 units" in a scenario
        if (m_session->mode() == TeachingSession::Mode::LiveRelay)
            overview->setBudget(m_session->relayConfig().budget.maxAttempts);
        else if (m_session->mode() == TeachingSession::Mode::Scenario)
            overview->setBudget(m_session->scenarioBudget());
        else
            overview->followDataLimit(); // idle: the outbox's own limit, at the next snapshot
    });
}

void TeachingDock::startDemo(QStatusBar *status)
{
    connect(m_session, &TeachingSession::startFinished, status,
        [status](bool ok, const QString &error) {
            if (!ok)
                status->showMessage(error);
        });
    QString error;
    if (m_session->startLiveRelay(
            TeachingSession::demoRelayConfig(), TeachingSession::DemoEventsPerSecond, &error))
        m_session->play();
    else
        status->showMessage(error);
}

// The viewport holds the rows (not the header); room is kept for a horizontal scroll bar that
// the columns growing to their content may still bring.
void TeachingDock::fitBelow(const QTableView *view)
{
    auto *window = qobject_cast<QMainWindow *>(parentWidget());
    if (!window || !isVisible())
        return;
    const QScrollBar *bar = view->horizontalScrollBar();
    const int rows = MinimumTableRows * view->verticalHeader()->defaultSectionSize()
        + (bar->isVisible() ? 0 : bar->sizeHint().height());
    const int spare = height() + view->viewport()->height() - rows;
    window->resizeDocks({this}, {qBound(MinimumHeight, spare, DefaultHeight)}, Qt::Vertical);
}
