// The operator's actions on the event table: replay the selected DEAD events, replay every
// DEAD event matching the current filter (not only the loaded page), and export the filtered
// events and the replay log to CSV with payloads redacted. Replays run on a thread of their
// own with their own connection; in read-only mode every mutating action is disabled.
#pragma once

#include "dbconnection.h"
#include "eventfilter.h"
#include "outboxprofile.h"
#include "replaytypes.h"

#include <QObject>
#include <functional>
#include <optional>

class EventListModel;
class QAction;
class QTableView;
class QWidget;

class OperatorActions : public QObject
{
    Q_OBJECT
public:
    using Clock = std::function<qint64()>;

    OperatorActions(const DbConnection *connection, QTableView *view, EventListModel *model,
        bool readOnly, Clock clock, QWidget *window);

    // Another library's table: replays run the profile's statement (no budget reset, spread or
    // replay log), or, for a read-only profile, are disabled with its explanation as tooltip.
    void setProfile(const OutboxProfile &profile);
    // Why replay is disabled by the schema (the profile's explanation); empty when it is not.
    QString replayUnavailableReason() const;

    QAction *replaySelectedAction() const { return m_replaySelected; }
    QAction *replayMatchingAction() const { return m_replayMatching; }
    QAction *exportEventsAction() const { return m_exportEvents; }
    QAction *exportAuditAction() const { return m_exportAudit; }
    bool isBusy() const { return m_busy; }

    // Replays in the background; with `bulkFilter`, every DEAD event matching it.
    void startReplay(
        const ReplayRequest &request, const std::optional<EventFilter> &bulkFilter = {});
    bool exportEventsTo(const QString &path, QString *error) const;
    bool exportAuditTo(const QString &path, QString *error) const;

signals:
    void replayFinished(const ReplayResult &result);

private:
    QStringList selectedDeadIds() const;
    void replaySelected();
    void replayMatching();
    bool confirm(const QStringList &preview, qint64 count, ReplayRequest *request);
    void exportEvents();
    void exportAudit();
    // Runs `work` with a Replayer on a connection and a thread of its own; `done` follows on
    // the GUI thread with the error, if any.
    void inBackground(std::function<void(class Replayer &, QString *)> work,
        std::function<void(const QString &)> done);
    void report(const ReplayResult &result);
    void updateEnabled();

    const DbConnection *m_connection = nullptr;
    QTableView *m_view = nullptr;
    EventListModel *m_model = nullptr;
    bool m_readOnly = false;
    std::optional<OutboxProfile> m_profile; // only for another schema than the native one
    Clock m_clock;
    QWidget *m_window = nullptr;
    QAction *m_replaySelected = nullptr;
    QAction *m_replayMatching = nullptr;
    QAction *m_exportEvents = nullptr;
    QAction *m_exportAudit = nullptr;
    bool m_busy = false;
    bool m_interactive = false;
};
