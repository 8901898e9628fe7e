#include "editactions.h"

#include "jobstatus.h"
#include "payloadeditdialog.h"
#include "payloadeditor.h"
#include "plainmessage.h"
#include "redaction.h"
#include "schema.h"

#include <QAction>
#include <QSettings>
#include <memory>

EditActions::EditActions(
    const DatabaseUrl &url, QTableView *view, bool readOnly, Clock clock, QWidget *window)
    : QObject(window)
    , m_readOnly(readOnly)
    , m_clock(std::move(clock))
    , m_window(window)
    , m_selected(new QAction(tr("Edit and replay…"), this))
    , m_runner(new OperatorRunner(url, view, readOnly, window, this))
{
    m_selected->setObjectName(QStringLiteral("editSelectedAction"));
    m_runner->status()->setObjectName(QStringLiteral("editStatus"));
    connect(m_selected, &QAction::triggered, this, [this] {
        const QStringList ids = m_runner->selectedDeadIds();
        if (ids.size() == 1)
            editEvent(ids.constFirst());
    });
    connect(m_runner, &OperatorRunner::runningChanged, this, &EditActions::updateEnabled);
    connect(m_runner, &OperatorRunner::selectionChanged, this, &EditActions::updateEnabled);
    updateEnabled();
}

EditActions::~EditActions()
{
    delete m_runner; // waits for its thread
}

JobStatus *EditActions::status() const
{
    return m_runner->status();
}

bool EditActions::isBusy() const
{
    return m_runner->isRunning();
}

void EditActions::setProfile(const OutboxProfile &profile)
{
    if (profile.isNative())
        m_profile.reset();
    else
        m_profile = profile;
    m_runner->setProfile(m_profile);
    updateEnabled();
}

void EditActions::setSchemaVersion(int version)
{
    m_schemaVersion = version;
    updateEnabled();
}

void EditActions::setGrants(const TableGrants &grants)
{
    m_grants = grants;
    updateEnabled();
}

QString EditActions::refusal() const
{
    if (m_readOnly)
        return tr("Read-only: the connection cannot change the outbox");
    if (m_profile)
        return tr("Edit and replay is not available: %1 has no revision table to keep the "
                  "original payload in")
            .arg(m_profile->name());
    if (const QString denied = m_grants.refusal(TableGrants::Operation::Edit); !denied.isEmpty())
        return denied;
    if (m_schemaVersion == 0)
        return tr("Waiting for the first snapshot to know the schema's version");
    const QString outdated = Schema::outdatedMessage(m_schemaVersion, PayloadEditor::NeededVersion);
    return outdated.isEmpty() ? QString()
                              : tr("Edit and replay needs a newer schema: %1").arg(outdated);
}

void EditActions::updateEnabled()
{
    const QString why = refusal();
    const bool one = m_runner->selectedDeadIds().size() == 1;
    m_selected->setEnabled(why.isEmpty() && !isBusy() && one);
    m_selected->setToolTip(why.isEmpty()
            ? (one ? tr("Edit the selected DEAD event's payload and replay it under the same "
                        "event ID (the original is kept)")
                   : tr("Select exactly one DEAD event to edit its payload"))
            : PlainMessage::toolTip(why));
    emit availabilityChanged();
}

void EditActions::editEvent(const QString &eventId)
{
    if (eventId.isEmpty() || !refusal().isEmpty() || isBusy())
        return;
    auto found = std::make_shared<PayloadEditor::Current>();
    m_runner->start(
        QStringLiteral("outbox-edit-read"),
        [eventId, found](const QSqlDatabase &db, const std::optional<OutboxProfile> &profile,
            const std::atomic_bool *, QString *error) {
            if (const auto current = PayloadEditor(db, profile).current(eventId, error))
                *found = *current;
        },
        [this, eventId, found](const QString &error) {
            if (!error.isEmpty()) {
                PlainMessage::warning(m_window, tr("Edit and replay"),
                    tr("Reading %1 failed: %2").arg(eventId, error));
                return;
            }
            ask(eventId, found->status, found->payload);
        });
}

void EditActions::ask(const QString &eventId, const QString &status, const QString &payload)
{
    if (status != QLatin1String("DEAD")) {
        PlainMessage::information(m_window, tr("Edit and replay"),
            status.isEmpty() ? tr("%1 no longer exists.").arg(eventId)
                             : tr("%1 is %2 now, no longer DEAD: only a DEAD event's payload "
                                  "can be edited.")
                                   .arg(eventId, status));
        return;
    }
    const QStringList keys = Redaction::sensitiveKeys(QSettings());
    PayloadEditDialog dialog(eventId, PayloadEditor::editableText(payload, keys, false),
        PayloadEditor::editableText(payload, keys, true), m_window);
    if (dialog.exec() != QDialog::Accepted)
        return;
    PayloadEditRequest request;
    request.eventId = eventId;
    request.newPayload = dialog.payloadText();
    request.baseDigest = PayloadEditor::digest(payload);
    request.revealed = dialog.isRevealed();
    request.sensitiveKeys = keys;
    request.operatorName = dialog.operatorName();
    request.reason = dialog.reason();
    m_interactive = true;
    startEdit(request);
}

void EditActions::startEdit(const PayloadEditRequest &request)
{
    if (isBusy())
        return;
    PayloadEditRequest job = request;
    job.now = m_clock();
    auto result = std::make_shared<PayloadEditResult>();
    // The lock, the checks and the writes: never on the GUI thread.
    m_runner->start(
        QStringLiteral("outbox-edit"),
        [job, result, readOnly = m_readOnly](const QSqlDatabase &db,
            const std::optional<OutboxProfile> &profile, const std::atomic_bool *,
            QString *) { *result = PayloadEditor(db, profile, readOnly).edit(job); },
        [this, result, id = job.eventId](const QString &error) {
            if (!error.isEmpty() && result->ok())
                *result = {PayloadEditResult::Outcome::Failed, error, 0, {}, {}};
            const bool interactive = std::exchange(m_interactive, false);
            if (result->ok())
                m_runner->status()->finish(
                    tr("Edited %1 (revision %2) and replayed it").arg(id).arg(result->revisionNo));
            else if (interactive)
                PlainMessage::warning(m_window,
                    result->outcome == PayloadEditResult::Outcome::Conflict
                        ? tr("Someone else got there first")
                        : tr("Edit and replay"),
                    result->error);
            emit editFinished(*result);
        });
}
