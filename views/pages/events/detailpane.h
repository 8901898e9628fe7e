// The selected event in full: its summary, a plain-language account of where it is, why and
// what happens next (EventExplainer, worked out on the reader's thread), every attempt (worker,
// claimed/finished, outcome, error, consumer result, next due), a retry timeline, an edited
// event's payload revisions (who, when, why, what changed, which one each attempt carried), and
// the operator notes and markers on the event and on its error group (plain text: HTML shows
// literally), and the payload, hidden until asked for. Everything is read by the window's
// DetailReader on its worker thread; the pane only asks and shows the answers. While a read runs it
// keeps what it shows and says it is loading; a read that failed keeps the last values and says so.
#pragma once

#include "eventdetail.h"
#include "outboxprofile.h"

#include <QWidget>
#include <functional>

class AttemptModel;
class QAction;
class DetailReader;
class ReplayLogModel;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableView;
class RetryTimeline;

class DetailPane : public QWidget
{
    Q_OBJECT
public:
    explicit DetailPane(DetailReader *reader, QWidget *parent = nullptr);

    // Another library's table through its profile: the summary and payload come from its
    // source; the attempts, the retry timeline and the replay log exist only on the native
    // schema and give way to a short "not available" label. (The reader reads the profile's
    // source; this only changes what is shown.)
    void setProfile(const OutboxProfile &profile);
    void setEventId(const QString &eventId); // empty: nothing selected
    // Why the event shown is not the table's selection (hidden by the filter, no longer
    // listed), shown above its summary; empty when it is the selected row.
    void setNotice(const QString &text);
    QString noticeText() const;
    // The clock leases are compared with (the simulation's on a simulation database).
    void setClock(std::function<qint64()> clock) { m_clock = std::move(clock); }
    QString eventId() const { return m_eventId; }
    void refresh(); // re-reads the selected event, e.g. after the relay touched it
    AttemptModel *attemptModel() const { return m_attempts; }
    ReplayLogModel *replayModel() const { return m_replays; }
    QString payloadText() const;
    QString summaryText() const;
    QString explanationText() const; // the plain-language account shown, or empty
    // The payload revisions of an edited event and which one each attempt carried, or empty.
    QString revisionsText() const;
    // The notes shown (the event's and its error group's), or empty when it has none.
    QString notesText() const;
    // "Add note…" and "Clear notes…" (NotesActions' actions) as buttons beside the notes.
    void setNoteActions(QAction *add, QAction *clear);
    QString statusText() const; // "Loading…", why the last read failed, or empty
    bool isLoading() const { return m_loading; }

private:
    void setupLayout();
    void setupLabels();
    void setupHistoryViews();
    void setupReplayView();
    void arrangeLayout();
    void showDetail(const EventDetail &detail);
    void showPayload(const EventPayload &payload);
    void showSummary(const EventDetail &detail);
    void showExplanation(const EventDetail &detail);
    void showNotes(const EventDetail &detail);
    void hideEmptyConsumerColumn();
    qint64 now() const;
    void revealPayload();
    void setStatus(const QString &text);

    DetailReader *m_reader = nullptr;
    bool m_native = true;
    bool m_attemptList = true; // the schema's attempts can be listed (native, or a profile's)
    QString m_profileName;
    void showHistoryNote(bool cut);
    bool m_loading = false;
    QLabel *m_notAvailable = nullptr;
    class QSplitter *m_history = nullptr;
    QString m_eventId;
    QString m_shownId; // the event whose values are shown (the last successful read)
    AttemptModel *m_attempts = nullptr;
    ReplayLogModel *m_replays = nullptr;
    QTableView *m_replayView = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_explanation = nullptr;
    QLabel *m_revisions = nullptr;
    QLabel *m_notes = nullptr;
    class QHBoxLayout *m_noteButtons = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_notice = nullptr;
    std::function<qint64()> m_clock;
    QTableView *m_attemptView = nullptr;
    RetryTimeline *m_timeline = nullptr;
    QPushButton *m_reveal = nullptr;
    QPlainTextEdit *m_payload = nullptr;
};
