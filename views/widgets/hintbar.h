// A short, dismissible hint above the tiles for a first look at the demo: what the red rows
// are and what to do with one. "Show me" selects a DEAD event; the close button hides the
// bar for good (the setting hints/demoDismissed).
#pragma once

#include <QFrame>

class QLabel;

class HintBar : public QFrame
{
    Q_OBJECT
public:
    explicit HintBar(QWidget *parent = nullptr);

    static bool isDismissed();
    QString text() const;

signals:
    void showMeRequested();

public slots:
    void dismiss(); // hides it and remembers that it was dismissed

private:
    QLabel *m_text = nullptr;
};
