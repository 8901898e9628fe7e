// Answers a window action's modal dialog in a test: each `Dialog` that shows is handed to
// `onDialog` once (which fills it in and accepts or rejects it), and a message box that shows
// instead is recorded in `box` and closed. Polls the active modal widget every 20 ms, since
// the actions open their dialogs with exec().
#pragma once

#include <QApplication>
#include <QMessageBox>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <functional>

template <typename Dialog>
class DialogAnswerer : public QObject
{
public:
    explicit DialogAnswerer(std::function<void(Dialog *)> onDialog)
        : m_onDialog(std::move(onDialog))
    {
        connect(&m_timer, &QTimer::timeout, this, &DialogAnswerer::answer);
        m_timer.start(20);
    }
    QString box;
    int dialogs = 0;

private:
    void answer()
    {
        QWidget *modal = QApplication::activeModalWidget();
        if (auto *dialog = qobject_cast<Dialog *>(modal)) {
            if (!dialog->isVisible() || m_seen == dialog)
                return;
            m_seen = dialog;
            ++dialogs;
            m_onDialog(dialog);
        } else if (auto *message = qobject_cast<QMessageBox *>(modal)) {
            box = message->text();
            message->accept();
        }
    }

    std::function<void(Dialog *)> m_onDialog;
    QPointer<Dialog> m_seen;
    QTimer m_timer;
};
