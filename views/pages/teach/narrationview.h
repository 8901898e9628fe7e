// The Teach page's narration: every lifecycle step told in plain words, newest last. It holds
// still while the pointer rests on it (new lines wait, counted under it, and follow when the
// pointer leaves), and keeps its newest Lines only, the waiting ones too: a demo left running
// for days stays small.
#pragma once

#include <QStringList>
#include <QWidget>

class QLabel;
class QPlainTextEdit;

class NarrationView : public QWidget
{
    Q_OBJECT
public:
    static constexpr int Lines = 500;

    explicit NarrationView(QWidget *parent = nullptr);

    void append(const QStringList &lines);
    void clear(); // a start, or a replay from t=0, is told from its first sentence
    QString text() const;
    int heldLines() const { return int(m_held.size()); }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void setHeld(bool held);

    QPlainTextEdit *m_text = nullptr;
    QLabel *m_heldNote = nullptr;
    bool m_isHeld = false;
    QStringList m_held;
    int m_heldArrived = 0; // lines arrived while held, kept or not
};
