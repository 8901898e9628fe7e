#include "detailsbutton.h"

#include <QLabel>

DetailsButton::DetailsButton(QWidget *parent)
    : QToolButton(parent)
    , m_label(new QLabel)
{
    setObjectName(QStringLiteral("detailsButton"));
    setCheckable(true);
    setAutoRaise(true);
    setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_label->setObjectName(QStringLiteral("detailsText"));
    m_label->setTextFormat(Qt::PlainText); // a server's words are never markup
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    connect(this, &QToolButton::toggled, this, &DetailsButton::update);
    update(false);
    setVisible(false);
}

void DetailsButton::setDetail(const QString &detail, const QString &plain)
{
    m_label->setText(detail);
    setToolTip(detail);
    const bool worth = !detail.isEmpty() && detail != plain;
    setVisible(worth);
    if (!worth)
        setChecked(false);
    update(isChecked());
}

QString DetailsButton::detail() const
{
    return m_label->text();
}

void DetailsButton::update(bool open)
{
    setText(open ? tr("Details ▾") : tr("Details ▸"));
    setAccessibleName(tr("Details"));
    m_label->setVisible(open && !m_label->text().isEmpty());
}
