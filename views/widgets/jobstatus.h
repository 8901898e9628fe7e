// One long job's part of the status bar (a bulk replay, a resolve, an export): while it runs, a
// bar, what is done of how many with the rate and the time left ("Replaying 340 of 1,762 ·
// 210/s · about 7 s left") and Cancel; when it ends, its outcome for MessageMs, then nothing.
// It sits beside the connection and health labels and never hides them, as
// QStatusBar::showMessage would. Its owner feeds it from queued signals of the job's thread:
// the GUI thread never waits for the job.
#pragma once

#include <QElapsedTimer>
#include <QWidget>

class ElidingLabel;
class QProgressBar;
class QPushButton;
class QTimer;

class JobStatus : public QWidget
{
    Q_OBJECT
public:
    static constexpr int MessageMs = 30000; // how long an outcome stays
    static constexpr int MaxTextWidth = 420; // px: elided beyond, the whole text in the tooltip
    static constexpr int MinTextWidth = 160; // px: as far as it gives way on a short bar

    // Hidden until a job begins; the window puts it in its status bar.
    explicit JobStatus(QWidget *parent = nullptr);

    // A job starts: a busy bar, `text` ("Replaying…") and Cancel; the rate's clock starts.
    void begin(const QString &text);
    // `text` says what is done ("Replaying 340 of 1,762"); the rate and, with a total (> 0),
    // the time left are added. Ignored once the job has finished.
    void setProgress(qint64 done, qint64 total, const QString &text);
    // The job ended: its outcome (plain text) instead of the bar, for MessageMs.
    void finish(const QString &message);

    bool isRunning() const { return m_running; }
    QString text() const { return m_text; } // what the label says, whole
    QPushButton *cancelButton() const { return m_cancel; }

    // " · 210/s · about 7 s left": the rate after `elapsedMs`, and the time left when `total`
    // is known; empty while too little has been done to tell.
    static QString rateText(qint64 done, qint64 total, qint64 elapsedMs);

signals:
    void cancelRequested(); // Cancel clicked: the job stops between two events or rows

private:
    void setText(const QString &text);

    QProgressBar *m_bar = nullptr;
    ElidingLabel *m_label = nullptr;
    QPushButton *m_cancel = nullptr;
    QTimer *m_clear = nullptr;
    QElapsedTimer m_clock;
    QString m_text;
    bool m_running = false;
};
