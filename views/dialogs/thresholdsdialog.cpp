#include "thresholdsdialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

namespace {

TileLimits read(const QSettings &settings, const QString &name, const TileLimits &fallback)
{
    return {settings.value(QStringLiteral("thresholds/%1/amber").arg(name), fallback.amber)
                .toLongLong(),
        settings.value(QStringLiteral("thresholds/%1/red").arg(name), fallback.red).toLongLong()};
}

void write(QSettings &settings, const QString &name, const TileLimits &limits)
{
    settings.setValue(QStringLiteral("thresholds/%1/amber").arg(name), limits.amber);
    settings.setValue(QStringLiteral("thresholds/%1/red").arg(name), limits.red);
}

} // namespace

ThresholdsDialog::ThresholdsDialog(const TileThresholds &current, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Tile thresholds"));
    auto *form = new QFormLayout;
    form->addRow(QString(), new QLabel(tr("amber at … red at")));
    m_due = addRow(form, tr("Due"), current.due, QString());
    m_leaseExpired = addRow(form, tr("Lease expired"), current.leaseExpired, QString());
    m_dead = addRow(form, tr("DEAD"), current.dead, QString());
    m_oldestPending = addRow(form, tr("Oldest pending"),
        {current.oldestPendingMs.amber / 1000, current.oldestPendingMs.red / 1000}, tr(" s"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
}

ThresholdsDialog::Row ThresholdsDialog::addRow(
    QFormLayout *form, const QString &label, const TileLimits &limits, const QString &suffix)
{
    Row row {new QSpinBox, new QSpinBox};
    auto *pair = new QHBoxLayout;
    for (QSpinBox *box : {row.amber, row.red}) {
        box->setRange(0, 1000000000);
        box->setSuffix(suffix);
        pair->addWidget(box);
    }
    row.amber->setValue(int(limits.amber));
    row.red->setValue(int(limits.red));
    form->addRow(label, pair);
    return row;
}

TileThresholds ThresholdsDialog::thresholds() const
{
    TileThresholds t;
    t.due = {m_due.amber->value(), m_due.red->value()};
    t.leaseExpired = {m_leaseExpired.amber->value(), m_leaseExpired.red->value()};
    t.dead = {m_dead.amber->value(), m_dead.red->value()};
    t.oldestPendingMs = {
        qint64(m_oldestPending.amber->value()) * 1000, qint64(m_oldestPending.red->value()) * 1000};
    return t;
}

TileThresholds ThresholdsDialog::load()
{
    const QSettings settings;
    const TileThresholds defaults;
    TileThresholds t;
    t.due = read(settings, QStringLiteral("due"), defaults.due);
    t.leaseExpired = read(settings, QStringLiteral("leaseExpired"), defaults.leaseExpired);
    t.dead = read(settings, QStringLiteral("dead"), defaults.dead);
    t.oldestPendingMs = read(settings, QStringLiteral("oldestPendingMs"), defaults.oldestPendingMs);
    return t;
}

void ThresholdsDialog::save(const TileThresholds &t)
{
    QSettings settings;
    write(settings, QStringLiteral("due"), t.due);
    write(settings, QStringLiteral("leaseExpired"), t.leaseExpired);
    write(settings, QStringLiteral("dead"), t.dead);
    write(settings, QStringLiteral("oldestPendingMs"), t.oldestPendingMs);
}
