// Operator notes and markers from the window: "Add note…" and "Clear notes…" on the selected
// DEAD event (the table's context menu and the detail pane; enabled while exactly one DEAD row
// is selected) and on an error group (the Errors tab, addGroupNote / clearGroupNotes). A
// NoteDialog asks who, the text and the marker; the write runs on the OperatorRunner's thread
// through NotesAccess (never on the GUI thread); notesChanged follows a write, for the table,
// the detail pane and the Errors tab to read again. The third user of WriteActions' shell:
// disabled, its tooltip saying why, in read-only mode (--read-only or the database's grants:
// adding needs TableGrants' NoteAdd, INSERT; clearing NoteClear, UPDATE), on a schema older than
// version 3 (what to run: `outboxctl migrate`), and through a profile without a notes database
// (OperatorNotes::unavailable(), asked on the worker).
#pragma once

#include "operatornotes.h"
#include "writeactions.h"

class QAction;

class NotesActions : public WriteActions
{
    Q_OBJECT
public:
    NotesActions(
        const DatabaseUrl &url, QTableView *view, bool readOnly, Clock clock, QWidget *window);

    QAction *addNoteAction() const { return m_add; }
    QAction *clearNotesAction() const { return m_clear; }

    // Why adding (clearing) a note is not possible here; empty when it is. They differ only by
    // the grants: adding needs INSERT on operator_note, clearing UPDATE of its cleared columns.
    QString addRefusal() const { return refusalFor(TableGrants::Operation::NoteAdd); }
    QString clearRefusal() const { return refusalFor(TableGrants::Operation::NoteClear); }
    // Why neither is possible (adding's words); empty when either is.
    QString refusal() const override;

    // Asks with the dialog, then writes (nothing when refused here or a write runs).
    void addNote(const NoteTarget &target);
    void clearNotes(const NoteTarget &target);
    // Writes in the background; noteFinished follows (also when refused by the model).
    void startAdd(const NoteRequest &request);
    void startClear(const NoteTarget &target, const QString &operatorName);

signals:
    // ok: written; otherwise `error` says why and nothing changed.
    void noteFinished(bool ok, const QString &error);
    void notesChanged(); // a note was added or cleared

protected:
    QString profileRefusal(const OutboxProfile &profile) const override;
    QString newerSchema(const QString &outdated) const override;
    void updateEnabled() override;

private:
    QString refusalFor(TableGrants::Operation operation) const;
    void updateAction(QAction *action, const QString &why, bool one, const QString &idle,
        const QString &available);
    void probeProfile();
    NoteTarget selectedEvent() const;
    void run(const QString &name, const QString &why, std::function<QString(OperatorNotes &)> write,
        const QString &did);

    QAction *m_add = nullptr;
    QAction *m_clear = nullptr;
    QString m_profileUnavailable; // through a profile: why notes are unavailable, from the worker
    bool m_profileProbed = false;
};
