// The selected event in full: its summary, every attempt (worker, claimed/finished, outcome,
// error, consumer result, next due), a retry timeline, and the payload, hidden until asked for.
#pragma once

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
