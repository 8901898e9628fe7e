// The selected event in full: its summary, every attempt (worker, claimed/finished, outcome,
// error, consumer result, next due), a retry timeline, and the payload, hidden until asked for.
#pragma once

#include "outboxprofile.h"

#include <QSqlDatabase>
#include <QWidget>

class AttemptModel;
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
    explicit DetailPane(const QSqlDatabase &db, QWidget *parent = nullptr);

    // Another library's table through its profile: the summary and payload come from its
    // source; the attempts, the retry timeline and the replay log exist only on the native
    // schema and give way to a short "not available" label.
    void setProfile(const OutboxProfile &profile);
    void setEventId(const QString &eventId); // empty: nothing selected
    QString eventId() const { return m_eventId; }
    void refresh(); // re-reads the selected event, e.g. after the relay touched it
    AttemptModel *attemptModel() const { return m_attempts; }
    ReplayLogModel *replayModel() const { return m_replays; }
    QString payloadText() const;

private:
    void setupLayout();
    void loadSummary();
    void revealPayload();

    QSqlDatabase m_db;
    QString m_source = QStringLiteral("delivery_outbox");
    bool m_native = true;
    QLabel *m_notAvailable = nullptr;
    class QSplitter *m_history = nullptr;
    QString m_eventId;
    AttemptModel *m_attempts = nullptr;
    ReplayLogModel *m_replays = nullptr;
    QTableView *m_replayView = nullptr;
    QLabel *m_summary = nullptr;
    QTableView *m_attemptView = nullptr;
    RetryTimeline *m_timeline = nullptr;
    QPushButton *m_reveal = nullptr;
    QPlainTextEdit *m_payload = nullptr;
};
