// The teaching panel (a simulation database only), docked below the pages and scrolled rather
// than squeezed: on a small screen the dock stays short and the event table keeps its rows. The
// session's bursts of relay activity become one refresh; its budget and clock reach the charts.
#pragma once

#include <QDockWidget>

class HealthMonitor;
class OverviewPage;
class AgeHistogramModel;
class QTableView;
class TeachingPanel;
class TeachingSession;

class TeachingDock : public QDockWidget
{
    Q_OBJECT
public:
    static constexpr int DefaultHeight = 300;

    TeachingDock(TeachingSession *session, HealthMonitor *monitor, QWidget *parent);
    TeachingPanel *panel() const { return m_panel; }
    // The scenario's budget on the failures chart, its logical clock on the ages.
    void follow(OverviewPage *overview, AgeHistogramModel *ages);
    // Once laid out: the table keeps at least 15 rows, the panel takes what is left, up to its
    // default height.
    void fitBelow(const QTableView *view);
    // The demo: the simulated relay runs from the start; the producer's stock is seeded on the
    // session's worker, and a failure there, later, says so in `status`.
    void startDemo(class QStatusBar *status);

private:
    static constexpr int MinimumTableRows = 15;
    static constexpr int MinimumHeight = 96; // it scrolls below its own height

    TeachingSession *m_session = nullptr;
    TeachingPanel *m_panel = nullptr;
};
