#include "narrationview.h"

#include <QEvent>
#include <QLabel>
#include <QPlainTextEdit>
#include <QVBoxLayout>

NarrationView::NarrationView(QWidget *parent)
    : QWidget(parent)
    , m_text(new QPlainTextEdit)
    , m_heldNote(new QLabel)
{
    m_text->setObjectName(QStringLiteral("narration"));
    m_text->setAccessibleName(tr("Narration"));
    m_text->setReadOnly(true);
    m_text->setMaximumBlockCount(Lines);
    m_text->setPlaceholderText(tr("Each lifecycle step is told here in plain words."));
    m_text->setToolTip(tr("The narration holds still while the pointer is over it."));
    m_text->setMinimumHeight(5 * m_text->fontMetrics().lineSpacing());
    m_text->viewport()->installEventFilter(this);
    m_heldNote->setObjectName(QStringLiteral("narrationHeld"));
    m_heldNote->hide();
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_heldNote);
}

void NarrationView::append(const QStringList &lines)
{
    if (m_isHeld) {
        m_held << lines;
        if (m_held.size() > Lines)
            m_held.remove(0, m_held.size() - Lines);
        m_heldArrived += int(lines.size());
        m_heldNote->setText(tr("Narration held while the pointer is over it: %n new line(s)",
            nullptr, m_heldArrived));
        return;
    }
    for (const QString &line : lines)
        m_text->appendPlainText(line);
}

void NarrationView::clear()
{
    m_text->clear();
    m_held.clear();
    m_heldArrived = 0;
    m_heldNote->setText(tr("Narration held while the pointer is over it"));
}

QString NarrationView::text() const
{
    return m_text->toPlainText();
}

void NarrationView::setHeld(bool held)
{
    if (held == m_isHeld)
        return;
    m_isHeld = held;
    m_heldNote->setText(tr("Narration held while the pointer is over it"));
    m_heldNote->setVisible(held);
    if (!held) {
        m_heldArrived = 0;
        append(std::exchange(m_held, {}));
    }
}

bool NarrationView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_text->viewport()) {
        if (event->type() == QEvent::Enter)
            setHeld(true);
        else if (event->type() == QEvent::Leave)
            setHeld(false);
    }
    return QWidget::eventFilter(watched, event);
}
