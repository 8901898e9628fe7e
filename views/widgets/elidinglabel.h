// A one-line label that gives way first when its row is short of room: it asks for its whole
// text's width, accepts down to `minimumWidth` and then draws its text cut with "…" at the right
// (its text() stays whole; put the whole text in the tooltip). The status bar's connection line
// and a job's outcome shrink so, and the health lines beside them never do.
#pragma once

#include <QLabel>

class ElidingLabel : public QLabel
{
    Q_OBJECT
public:
    explicit ElidingLabel(int minimumWidth, QWidget *parent = nullptr);

    QSize minimumSizeHint() const override;
    bool isElided() const; // drawn cut at its present width

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    int m_minimumWidth;
};
