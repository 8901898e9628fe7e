// What the event table says besides its rows: under it, how many rows match ("1,234 events
// match", "more than 10,000 events match"), "Searching… 2.3 s" while a read takes longer than a
// moment (the time it has run, ticking), the table's own refresh when its reads are costly
// ("rows re-read every 60 s: a read takes 3.1 s"), and why the last read failed or was stopped,
// e.g. "Cancelled at the statement timeout (10 s)…" (kept rows stay; one line, so the table never
// moves, the whole message in its tooltip); over an empty table, "No events match" with the
// filter in words, or the reason it could not be read, instead of an empty grid. The table's
// reads and their words are the table's own: the health status bar never shows them.
#pragma once

#include <QWidget>

class EventListModel;
class QAbstractItemView;
class QLabel;
class QTimer;

class EventTableStatus : public QWidget
{
    Q_OBJECT
public:
    static constexpr int LoadingDelayMs = 300; // a quick read shows no indicator at all
    static constexpr int ElapsedTickMs = 100; // the running time's tenths of a second

    EventTableStatus(EventListModel *model, QAbstractItemView *view, QWidget *parent = nullptr);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void update();
    void showLoading(bool loading);
    void showElapsed();
    void showCadence();
    void showMessage();

    EventListModel *m_model = nullptr;
    QAbstractItemView *m_view = nullptr;
    QWidget *m_viewport = nullptr; // the view's, watched for its size
    QLabel *m_count = nullptr;
    QLabel *m_loading = nullptr;
    QLabel *m_cadence = nullptr;
    QLabel *m_message = nullptr;
    QString m_messageText; // whole; the label shows one line of it
    QLabel *m_overlay = nullptr;
    QTimer *m_loadingDelay = nullptr;
    QTimer *m_elapsedTick = nullptr;
};
