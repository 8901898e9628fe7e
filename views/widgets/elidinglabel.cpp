#include "elidinglabel.h"

#include <QPainter>
#include <QStyle>

ElidingLabel::ElidingLabel(int minimumWidth, QWidget *parent)
    : QLabel(parent)
    , m_minimumWidth(minimumWidth)
{
    setTextFormat(Qt::PlainText);
}

QSize ElidingLabel::minimumSizeHint() const
{
    const QSize whole = QLabel::minimumSizeHint();
    return {std::min(whole.width(), m_minimumWidth), whole.height()};
}

bool ElidingLabel::isElided() const
{
    return fontMetrics().horizontalAdvance(text()) > contentsRect().width();
}

void ElidingLabel::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    const QRect rect = contentsRect();
    const QString shown = fontMetrics().elidedText(text(), Qt::ElideRight, rect.width());
    style()->drawItemText(&painter, rect, int(alignment()) | Qt::TextSingleLine, palette(),
        isEnabled(), shown, foregroundRole());
}
