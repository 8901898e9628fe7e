// What joins one part of the window to another, apart from the window itself: the Errors page's
// group buttons on the window's writes, the diagnosis on its page, the status line and the
// tiles, and every "show these events" (a tile, a group, a finding, the hint bar) onto the
// Events page.
#pragma once

class DiagnosisMonitor;
class DiagnosisStatusLine;
class MainWindow;
class TeachingSession;

namespace PageWiring {

// "Replay group…", "Resolve group…", "Show events", "Add note…" and "Clear notes…" on the
// selected error group, each guarded as the event's are; Enter on a group shows its events.
void wireErrors(MainWindow &window);
// Results to the page, the status line and the DEAD tile's "(N on hold)"; the line opens the
// page; a finding's "Show events" shows the Events page, filtered.
void wireDiagnosis(MainWindow &window, DiagnosisMonitor *diagnosis, DiagnosisStatusLine *line);
// The teaching session's budget on the Overview's failures chart, its logical clock on the
// ages, and its relay's policy and budget in the detail's explanation.
void wireTeaching(MainWindow &window, TeachingSession *session);
// The teaching session's relay names its policy and budget in the detail's explanation.
void wireExplanations(MainWindow &window, TeachingSession *session);
// A note changes no figure: the table, the detail, the Errors page and the diagnosis read again.
void wireNotes(MainWindow &window);

// The table on one state, as a click on a tile asks (the oldest-pending tile: pending events,
// oldest first).
void filterByTile(MainWindow &window, int tile);

} // namespace PageWiring
