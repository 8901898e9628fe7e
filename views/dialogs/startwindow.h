// What the dashboard shows while its database is being opened at start-up (off the GUI thread,
// by a ConnectionOpener), and instead of exiting when it cannot be opened: the cause, with
// Connect… and Open demo one click away.
#pragma once

#include <QMainWindow>

class QLabel;
class QPushButton;

class StartWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit StartWindow(QWidget *parent = nullptr);

    void setOpening(const QString &database); // "Opening postgresql://…" (no password)
    void setFailed(const QString &database, const QString &cause);
    QString message() const;
    QPushButton *connectButton() const { return m_connect; }

signals:
    void connectRequested();
    void demoRequested();

private:
    QLabel *m_title = nullptr;
    QLabel *m_message = nullptr;
    QPushButton *m_connect = nullptr;
    QPushButton *m_demo = nullptr;
};
