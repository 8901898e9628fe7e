#include "alertbar.h"

#include "themecolours.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTime>
#include <QToolButton>

namespace {

const char OutboxProperty[] = "outbox";

} // namespace

AlertBar::AlertBar(QWidget *parent)
    : QFrame(parent)
    , m_rows(new QVBoxLayout(this))
{
    setObjectName(QStringLiteral("alertBar"));
    setStyleSheet(ThemeColours::bannerStyleSheet(objectName(), ThemeColours::TileLevel::Red));
    m_rows->setContentsMargins(10, 2, 4, 2);
    m_rows->setSpacing(0);
    hide();
}

void AlertBar::addAlert(const QString &outbox, const QString &text)
{
    m_rows->insertWidget(0, makeRow(outbox, text));
    while (m_rows->count() > MaxAlerts)
        removeRow(m_rows->itemAt(m_rows->count() - 1)->widget());
    show();
}

QWidget *AlertBar::makeRow(const QString &outbox, const QString &text)
{
    auto *row = new QWidget;
    row->setProperty(OutboxProperty, outbox);
    auto *label
        = new QLabel(QStringLiteral("⚠ %1  (%2)")
                         .arg(text, QTime::currentTime().toString(QStringLiteral("HH:mm:ss"))));
    label->setObjectName(QStringLiteral("alertText"));
    label->setTextFormat(Qt::PlainText); // names from a file: never markup
    auto *mute = new QPushButton(tr("Mute"));
    mute->setObjectName(QStringLiteral("alertMute"));
    mute->setToolTip(tr("No more desktop alerts for %1 (remembered)").arg(outbox));
    connect(mute, &QPushButton::clicked, this, [this, outbox] {
        emit muteRequested(outbox);
        removeAlerts(outbox);
    });
    auto *close = new QToolButton;
    close->setObjectName(QStringLiteral("alertDismiss"));
    close->setText(QStringLiteral("✕"));
    close->setAutoRaise(true);
    close->setToolTip(tr("Dismiss this alert"));
    close->setAccessibleName(tr("Dismiss this alert")); // not "multiplication sign"
    connect(close, &QToolButton::clicked, this, [this, row] { removeRow(row); });
    auto *layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(label, 1);
    layout->addWidget(mute);
    layout->addWidget(close);
    return row;
}

QStringList AlertBar::texts() const
{
    QStringList texts;
    for (int i = 0; i < m_rows->count(); ++i) {
        if (auto *label = m_rows->itemAt(i)->widget()->findChild<QLabel *>())
            texts << label->text();
    }
    return texts;
}

void AlertBar::removeAlerts(const QString &outbox)
{
    for (int i = m_rows->count() - 1; i >= 0; --i) {
        QWidget *row = m_rows->itemAt(i)->widget();
        if (row->property(OutboxProperty).toString() == outbox)
            removeRow(row);
    }
}

void AlertBar::removeRow(QWidget *row)
{
    m_rows->removeWidget(row);
    row->hide();
    row->deleteLater();
    if (m_rows->count() == 0)
        hide();
}
