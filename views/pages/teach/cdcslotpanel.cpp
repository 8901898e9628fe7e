#include "cdcslotpanel.h"

#include "cdclesson.h"
#include "simulatedcdcrelay.h"
#include "themecolours.h"

#include <QFormLayout>
#include <QLabel>
#include <QLocale>

CdcSlotPanel::CdcSlotPanel(QWidget *parent)
    : QGroupBox(tr("What an operator looks at"), parent)
{
    setObjectName(QStringLiteral("cdcSlotPanel"));
    auto *form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    m_active = addRow(form, tr("Slot active"), QStringLiteral("cdcActive"),
        tr("pg_replication_slots.active: a consumer is connected. Inactive for minutes means "
           "the connector is stopped or stuck."));
    m_lag = addRow(form, tr("Lag"), QStringLiteral("cdcLag"),
        tr("Current WAL position − confirmed_flush_lsn: WAL written that the connector has not "
           "confirmed."));
    m_retained = addRow(form, tr("Retained WAL"), QStringLiteral("cdcRetained"),
        tr("Current WAL position − restart_lsn: WAL the slot keeps on disk."));
    m_walStatus = addRow(form, tr("wal_status"), QStringLiteral("cdcWalStatus"),
        tr("reserved, extended (past max_wal_size), unreserved (past max_slot_wal_keep_size: "
           "removed at the next checkpoint), lost (the slot is invalidated)."));
    m_safe = addRow(form, tr("safe_wal_size"), QStringLiteral("cdcSafe"),
        tr("WAL that can still be written before the slot is in danger; none when "
           "max_slot_wal_keep_size is -1 (then the disk is the limit)."));
    m_runway = addRow(form, tr("Runway"), QStringLiteral("cdcRunway"),
        tr("safe_wal_size at the current WAL rate: an estimate."));
    m_behind = addRow(form, tr("Events not published"), QStringLiteral("cdcBehind"),
        tr("Inserted into the outbox, not yet confirmed by the connector (and lost with a lost "
           "slot)."));
}

QLabel *CdcSlotPanel::addRow(
    QFormLayout *form, const QString &name, const QString &objectName, const QString &where)
{
    auto *label = new QLabel(name);
    label->setToolTip(where);
    auto *value = new QLabel;
    value->setObjectName(objectName);
    value->setToolTip(where);
    value->setTextFormat(Qt::PlainText);
    form->addRow(label, value);
    return value;
}

void CdcSlotPanel::setRelay(const SimulatedCdcRelay &relay, qint64 nowMs)
{
    const QLocale locale;
    const QString red = QStringLiteral("color: %1").arg(ThemeColours::errorText().name());
    const QString amber = QStringLiteral("color: %1").arg(ThemeColours::warningText().name());
    m_active->setText(relay.slotActive() ? tr("yes")
            : relay.isLost()
            ? tr("no: the slot is lost")
            : tr("no, for %1 s").arg(relay.inactiveForMs(nowMs).value_or(0) / 1000));
    m_active->setStyleSheet(relay.slotActive() ? QString() : relay.isLost() ? red : amber);
    m_lag->setText(
        tr("%1 (%2 bytes)")
            .arg(CdcLesson::bytesText(relay.lagBytes()), locale.toString(relay.lagBytes())));
    m_retained->setText(relay.isLost() ? tr("none: restart_lsn is empty")
                                       : CdcLesson::bytesText(relay.retainedBytes()));
    m_walStatus->setText(relay.walStatusName());
    using S = SimulatedCdcRelay::WalStatus;
    const S status = relay.walStatus();
    m_walStatus->setStyleSheet(status == S::Unreserved || status == S::Lost ? red
            : status == S::Extended                                         ? amber
                                                                            : QString());
    const std::optional<qint64> safe = relay.safeWalSizeBytes();
    m_safe->setText(safe ? CdcLesson::bytesText(*safe) : tr("none"));
    const std::optional<qint64> runway = relay.runwayMs();
    m_runway->setText(runway
            ? tr("about %1 s at %2/s")
                  .arg(*runway / 1000)
                  .arg(CdcLesson::bytesText(qint64(relay.walRateBytesPerSecond().value_or(0))))
            : tr("unknown"));
    const QString behind = locale.toString(relay.eventsBehind());
    m_behind->setText(relay.isLost() ? tr("%1, lost with the slot").arg(behind)
            : relay.eventsLost() > 0
            ? tr("%1 (%2 lost before)").arg(behind, locale.toString(relay.eventsLost()))
            : behind);
    m_behind->setStyleSheet(relay.isLost() ? red : QString());
}

QString CdcSlotPanel::lagText() const
{
    return m_lag->text();
}

QString CdcSlotPanel::activeText() const
{
    return m_active->text();
}

QString CdcSlotPanel::walStatusText() const
{
    return m_walStatus->text();
}
