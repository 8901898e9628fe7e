// Edit and replay from the window: "Edit and replay…" (enabled while exactly one DEAD event is
// selected) reads the event's payload on a worker, opens the PayloadEditDialog with it (redacted
// values masked), and saves the edit on the worker (PayloadEditor: the original kept in
// payload_revision, the event replayed under the same ID). Another operator who got there first
// is a clear message and nothing is written. Disabled, its tooltip saying why, in read-only
// mode, through a profile, when the role's grants refuse the writes and on a schema older than
// version 3 (`outboxctl migrate` adds payload_revision).
#pragma once

#include "dbconnection.h"
#include "operatorrunner.h"
#include "outboxprofile.h"
#include "payloadedittypes.h"
#include "tablegrants.h"

#include <QObject>
#include <functional>
#include <optional>

class JobStatus;
class QAction;
class QTableView;
class QWidget;

class EditActions : public QObject
{
    Q_OBJECT
public:
    using Clock = std::function<qint64()>;

    EditActions(
        const DatabaseUrl &url, QTableView *view, bool readOnly, Clock clock, QWidget *window);
    ~EditActions() override; // waits for a running read or edit

    void setProfile(const OutboxProfile &profile);
    void setSchemaVersion(int version); // from the health snapshot (0 until the first)
    void setGrants(const TableGrants &grants);
    // Why no payload can be edited here; empty when it can.
    QString refusal() const;

    QAction *editSelectedAction() const { return m_selected; }
    bool isBusy() const;
    JobStatus *status() const;

    // Reads `eventId`'s payload on the worker, then asks with the dialog and saves the edit.
    void editEvent(const QString &eventId);
    // Saves an edit in the background; editFinished follows (also when refused).
    void startEdit(const PayloadEditRequest &request);

signals:
    void editFinished(const PayloadEditResult &result);
    void availabilityChanged();

private:
    void updateEnabled();
    void ask(const QString &eventId, const QString &status, const QString &payload);

    bool m_readOnly = false;
    Clock m_clock;
    QWidget *m_window = nullptr;
    std::optional<OutboxProfile> m_profile;
    int m_schemaVersion = 0;
    TableGrants m_grants;
    QAction *m_selected = nullptr;
    OperatorRunner *m_runner = nullptr;
    bool m_interactive = false;
};
