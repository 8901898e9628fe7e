#include "alertbar.h"

#include "themecolours.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTime>
#include <QToolButton>

namespace {

const char OutboxProperty[] = "outbox";
const char AlertProperty[] = "alert"; // an alert's row, not a recovery's
const char TimeProperty[] = "time";

QString rowText(bool alert, const QString &text, const QString &time)
{
    return QStringLiteral("%1 %2  (%3)").arg(alert ? u"⚠"_qs : u"✓"_qs, text, time);
}

QString detailTip(const QString &detail)
{
    return detail.isEmpty() ? QString() : AlertBar::tr("Details: %1").arg(detail);
}

} // namespace

AlertBar::AlertBar(QWidget *parent)
    : QFrame(parent)
    , m_rows(new QVBoxLayout(this))
{
    setObjectName(QStringLiteral("alertBar"));
    restyle();
    m_rows->setContentsMargins(10, 2, 4, 2);
    m_rows->setSpacing(0);
    hide();
}

void AlertBar::addAlert(const QString &outbox, const QString &text, const QString &detail)
{
    addRow(outbox, text, detail, true);
}

void AlertBar::addRecovery(const QString &outbox, const QString &text)
{
    addRow(outbox, text, {}, false);
}

void AlertBar::addRow(const QString &outbox, const QString &text, const QString &detail, bool alert)
{
    removeAlerts(outbox); // one row per outbox: its newest news
    m_rows->insertWidget(0, makeRow(outbox, text, detail, alert));
    while (m_rows->count() > MaxAlerts)
        removeRow(m_rows->itemAt(m_rows->count() - 1)->widget());
    restyle();
    show();
}

void AlertBar::updateAlert(const QString &outbox, const QString &text, const QString &detail)
{
    for (int i = 0; i < m_rows->count(); ++i) {
        QWidget *row = m_rows->itemAt(i)->widget();
        if (row->property(OutboxProperty).toString() != outbox
            || !row->property(AlertProperty).toBool())
            continue;
        auto *label = row->findChild<QLabel *>(QStringLiteral("alertText"));
        const QString updated = rowText(true, text, row->property(TimeProperty).toString());
        if (label->text() != updated)
            label->setText(updated);
        label->setToolTip(detailTip(detail));
    }
}

QWidget *AlertBar::makeRow(
    const QString &outbox, const QString &text, const QString &detail, bool alert)
{
    auto *row = new QWidget;
    row->setProperty(OutboxProperty, outbox);
    row->setProperty(AlertProperty, alert);
    const QString time = QTime::currentTime().toString(QStringLiteral("HH:mm:ss"));
    row->setProperty(TimeProperty, time);
    auto *label = new QLabel(rowText(alert, text, time));
    label->setObjectName(QStringLiteral("alertText"));
    label->setTextFormat(Qt::PlainText); // names from a file: never markup
    label->setToolTip(detailTip(detail));
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
    restyle();
    if (m_rows->count() == 0)
        hide();
}

// Red while any row is an alert; a bar of recoveries only is a plain note.
void AlertBar::restyle()
{
    bool alert = false;
    for (int i = 0; i < m_rows->count(); ++i)
        alert = alert || m_rows->itemAt(i)->widget()->property(AlertProperty).toBool();
    const QString sheet = ThemeColours::bannerStyleSheet(objectName(),
        alert ? ThemeColours::TileLevel::Red : ThemeColours::TileLevel::Normal);
    if (styleSheet() != sheet)
        setStyleSheet(sheet);
}
