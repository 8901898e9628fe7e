#include "notesactions.h"

#include "jobstatus.h"
#include "notedialog.h"
#include "notesaccess.h"
#include "plainmessage.h"

#include <QAction>

NotesActions::NotesActions(
    const DatabaseUrl &url, QTableView *view, bool readOnly, Clock clock, QWidget *window)
    : WriteActions({TableGrants::Operation::NoteAdd, OperatorNotes::NotesVersion}, url, view,
        readOnly, std::move(clock), window)
    , m_add(new QAction(tr("Add note…"), this))
    , m_clear(new QAction(tr("Clear notes…"), this))
{
    m_add->setObjectName(QStringLiteral("addNoteAction"));
    m_clear->setObjectName(QStringLiteral("clearNotesAction"));
    status()->setObjectName(QStringLiteral("noteStatus"));
    connect(m_add, &QAction::triggered, this, [this] {
        if (const NoteTarget target = selectedEvent(); target.isEvent())
            addNote(target);
    });
    connect(m_clear, &QAction::triggered, this, [this] {
        if (const NoteTarget target = selectedEvent(); target.isEvent())
            clearNotes(target);
    });
    updateEnabled();
}

NoteTarget NotesActions::selectedEvent() const
{
    const QStringList ids = runner()->selectedDeadIds();
    return ids.size() == 1 ? NoteTarget {ids.constFirst(), {}} : NoteTarget {};
}

QString NotesActions::refusal() const
{
    const QString add = addRefusal();
    return add.isEmpty() || clearRefusal().isEmpty() ? QString() : add;
}

QString NotesActions::refusalFor(TableGrants::Operation operation) const
{
    if (profile() && !isReadOnly()) {
        // Through a profile notes live in a database of the tool's own (--notes-db), if any:
        // the worker's answer decides, the outbox's grants and schema do not.
        if (!m_profileProbed)
            return tr("Checking whether notes are available through %1…").arg(profile()->name());
        return m_profileUnavailable.isEmpty()
            ? QString()
            : tr("Notes are not available: %1").arg(m_profileUnavailable);
    }
    return shellRefusal(operation);
}

QString NotesActions::profileRefusal(const OutboxProfile &) const
{
    return {}; // refusal() answers for a profile
}

QString NotesActions::newerSchema(const QString &outdated) const
{
    return tr("Notes need a newer schema: %1").arg(outdated);
}

void NotesActions::updateEnabled()
{
    if (profile() && !m_profileProbed && !isBusy())
        probeProfile();
    else if (!profile())
        m_profileProbed = false;
    const bool one = selectedEvent().isEvent();
    updateAction(m_add, addRefusal(), one, tr("Select exactly one DEAD event to add a note to it"),
        tr("A note and a marker (investigating, on hold) on the selected DEAD event, with who "
           "and when"));
    updateAction(m_clear, clearRefusal(), one,
        tr("Select exactly one DEAD event to clear its notes"),
        tr("Clear the selected DEAD event's notes (kept, marked cleared)"));
    emit availabilityChanged();
}

void NotesActions::updateAction(
    QAction *action, const QString &why, bool one, const QString &idle, const QString &available)
{
    action->setEnabled(why.isEmpty() && !isBusy() && one);
    action->setToolTip(!why.isEmpty() ? why : one ? available : idle);
}

void NotesActions::probeProfile()
{
    m_profileProbed = true; // one probe per profile; its answer comes back below
    m_profileUnavailable = tr("checking…");
    auto answer = std::make_shared<QString>();
    runner()->start(
        QStringLiteral("outbox-notes-probe"),
        [answer](const QSqlDatabase &db, const std::optional<OutboxProfile> &profile,
            const std::atomic_bool *, QString *) {
            *answer = NotesAccess::open(db, profile ? &*profile : nullptr).unavailable();
        },
        [this, answer](const QString &error) {
            m_profileUnavailable = error.isEmpty() ? *answer : error;
            updateEnabled();
        });
}

void NotesActions::addNote(const NoteTarget &target)
{
    if (!addRefusal().isEmpty() || isBusy())
        return; // the action is disabled then
    NoteDialog dialog(NoteDialog::Mode::Add, target, window());
    if (dialog.exec() != QDialog::Accepted)
        return;
    markInteractive();
    startAdd(dialog.request());
}

void NotesActions::clearNotes(const NoteTarget &target)
{
    if (!clearRefusal().isEmpty() || isBusy())
        return;
    NoteDialog dialog(NoteDialog::Mode::Clear, target, window());
    if (dialog.exec() != QDialog::Accepted)
        return;
    markInteractive();
    startClear(target, dialog.operatorName());
}

void NotesActions::startAdd(const NoteRequest &request)
{
    NoteRequest job = request;
    job.now = now();
    run(
        QStringLiteral("outbox-note"), addRefusal(),
        [job](OperatorNotes &notes) {
            QString error;
            notes.add(job, &error);
            return error;
        },
        job.target.isEvent() ? tr("Added a note to %1").arg(job.target.eventId)
                             : tr("Added a note to the error group"));
}

void NotesActions::startClear(const NoteTarget &target, const QString &operatorName)
{
    run(
        QStringLiteral("outbox-note-clear"), clearRefusal(),
        [target, operatorName, at = now()](OperatorNotes &notes) {
            QString error;
            notes.clear(target, 0, operatorName, at, &error);
            return error;
        },
        target.isEvent() ? tr("Cleared the notes of %1").arg(target.eventId)
                         : tr("Cleared the notes of the error group"));
}

void NotesActions::run(const QString &name, const QString &why,
    std::function<QString(OperatorNotes &)> write, const QString &did)
{
    if (!why.isEmpty() || isBusy()) {
        takeInteractive();
        emit noteFinished(false, why.isEmpty() ? tr("another note is being written") : why);
        return;
    }
    auto refused = std::make_shared<QString>();
    // The write: never on the GUI thread.
    runner()->start(
        name,
        [write, refused](const QSqlDatabase &db, const std::optional<OutboxProfile> &profile,
            const std::atomic_bool *, QString *) {
            OperatorNotes notes = NotesAccess::open(db, profile ? &*profile : nullptr);
            *refused = write(notes);
        },
        [this, refused, did](const QString &error) {
            const QString failure = error.isEmpty() ? *refused : error;
            const bool interactive = takeInteractive();
            if (failure.isEmpty()) {
                status()->finish(did);
                emit notesChanged();
            } else if (interactive) {
                PlainMessage::warning(window(), tr("Note"), failure);
            }
            emit noteFinished(failure.isEmpty(), failure);
        });
}
