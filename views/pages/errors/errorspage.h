// The Errors tab: failed events (PENDING after a failure, and DEAD) grouped by the signature of
// their last error, largest first, in a numbered table and in a bar chart of the largest groups
// (DEAD and still retrying), each bar labelled with its group's number in the table. The groups are
// read on a worker thread of its own (TriageReader) when the tab is shown and, while it is visible,
// after each health snapshot: "Loading…" while a read runs, the reason when one fails. Selecting a
// group filters nothing; Enter, a double click or "Show events" (showSelectedEvents) asks for the
// event table to show its events (filterRequested); "Replay group…" replays the
// group's DEAD events and "Resolve group…" closes them without delivery, each through the
// operator's writes the window hands over (GroupWrites: the dialogs, the preview and the guards
// live there; the page includes no action of views/actions/).
// More buttons acting on the selected group go in the same row (addGroupButton).
#pragma once

#include "page.h"

#include "dbconnection.h"
#include "errorgroups.h"
#include "eventfilter.h"
#include "outboxprofile.h"

#include <QWidget>
#include <functional>
#include <optional>

class ErrorGroupModel;
class QAbstractButton;
class QBarCategoryAxis;
class QHBoxLayout;
class QHorizontalStackedBarSeries;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QValueAxis;
class TriageReader;

// What the page may ask of the operator's writes: who offers them (window/errorswiring) answers
// the refusals (empty: allowed) and runs the replay or the resolve, dialog first.
struct GroupWrites
{
    std::function<QString()> replayRefusal;
    std::function<bool()> replayBusy;
    std::function<void(const QString &signature, const QStringList &ids)> replay;
    std::function<QString()> resolveRefusal; // none: no "Resolve group…" button
    std::function<bool()> resolveBusy;
    std::function<void(const QStringList &ids)> resolve;
};

class ErrorsPage : public QWidget, public Page
{
    Q_OBJECT
public:
    static inline const QString Key = QStringLiteral("errors");

    using Clock = std::function<qint64()>;
    static constexpr int ChartBars = 10; // the largest groups; the table lists them all

    // `profile`: another library's table (none or native: delivery_outbox). Without a
    // last_error column the tab says the groups are not available and never reads.
    ErrorsPage(const DatabaseUrl &url, const std::optional<OutboxProfile> &profile, Clock clock,
        QWidget *parent = nullptr);

    // The replay and resolve paths (and their guards); "Replay group…" stays disabled until
    // they are set; a resolve path adds "Resolve group…" to the row. Call updateButtons() when
    // their availability changes.
    void setGroupWrites(GroupWrites writes);
    // A button acting on the selected group, after the others in the row; groupChanged says
    // when to update it.
    void addGroupButton(QAbstractButton *button);
    std::optional<ErrorGroup> selectedGroup() const;
    // The event table's filter for a group: its signature as a pattern, nothing else.
    static EventFilter filterFor(const QString &signature);

    ErrorGroupModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    QPushButton *replayButton() const { return m_replay; }
    QPushButton *resolveButton() const { return m_resolveButton; }
    QString statusText() const;
    bool isLoading() const;
    // The chart's bar shown selected (0: the bottom one), or -1: the selected group's, when
    // it is among the largest.
    int selectedBar() const;

    // The page contract (page.h).
    QWidget *focusTarget() const override; // the groups' table
    void outboxChanged(const HealthSnapshot &snapshot, bool figuresChanged) override;

public slots:
    // Reads the groups again, only while the tab is visible (showing it reads them too).
    void refresh();
    // Asks for the selected group's events on the Events page (filterRequested), as Enter or a
    // double click on the group does.
    void showSelectedEvents();
    // The writes' refusals or business changed.
    void updateButtons();

signals:
    void filterRequested(const EventFilter &filter);
    void groupChanged(); // another group selected, or the selected one changed on a refresh

protected:
    void showEvent(QShowEvent *event) override;

private:
    QWidget *setupChart();
    void setupTable();
    void fixColumnWidths();
    void highlightSelectedBar();
    QHBoxLayout *setupButtons();
    void setStatus(const QString &text, bool error = false);
    void showLoading();
    void applyGroups(const QList<ErrorGroup> &groups);
    void failGroups(const QString &error);
    void selectSignature(const QString &signature); // without asking for a filter
    void onCurrentRowChanged();
    enum class GroupAction { Replay, Resolve };
    void actOnGroup(GroupAction action);
    void replayGroup() { actOnGroup(GroupAction::Replay); }
    void replayIdsLoaded(const QString &signature, const QStringList &ids);
    void replayIdsFailed(const QString &signature, const QString &error);
    void resetButtonTexts();
    bool canReplay() const;
    void updateChartAxes();
    void describeChart();
    void colourBars();

    TriageReader *m_reader = nullptr;
    GroupWrites m_writes;
    Clock m_clock;
    QString m_unavailable; // why the schema has no groups; empty when it has
    ErrorGroupModel *m_model = nullptr;
    QLabel *m_status = nullptr;
    QTableView *m_view = nullptr;
    QSortFilterProxyModel *m_chartRows = nullptr; // the largest groups, largest last
    QHorizontalStackedBarSeries *m_bars = nullptr;
    QBarCategoryAxis *m_groupAxis = nullptr;
    QValueAxis *m_countAxis = nullptr;
    QHBoxLayout *m_buttons = nullptr;
    QPushButton *m_replay = nullptr;
    QString m_summary; // "2 error groups, …" of the last read
    QString m_selected; // the selected group's signature, kept across refreshes
    QString m_findingIds; // "Replay group…" or "Resolve group…" waits for these DEAD events
    GroupAction m_findingFor = GroupAction::Replay;
    QPushButton *m_resolveButton = nullptr;
    bool m_restoring = false; // the selection is put back after a refresh: no filter asked
};
