#include "replaydialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace {

const int PreviewLimit = 50;

} // namespace

ReplayDialog::ReplayDialog(const QStringList &preview, qint64 count, QWidget *parent)
    : QDialog(parent)
    , m_count(count)
    , m_operator(new QLineEdit(defaultOperator()))
    , m_reason(new QLineEdit)
    , m_reset(new QRadioButton(tr("Reset the attempt budget (failures back to 0)")))
    , m_oneMore(
          new QRadioButton(tr("One more attempt (failures kept; the next failure parks it again)")))
    , m_spreadMinutes(new QSpinBox)
{
    setWindowTitle(tr("Replay parked events"));
    auto *heading = m_heading = new QLabel(
        tr("<b>Replay %n parked event(s)</b> with their same event IDs. Each is replayed "
           "in its own transaction, only while it is still DEAD, and recorded in the "
           "replay log.",
            nullptr, int(count)));
    heading->setWordWrap(true);
    auto *ids = new QPlainTextEdit;
    ids->setObjectName(QStringLiteral("replayPreview"));
    ids->setReadOnly(true);
    QStringList shown = preview.mid(0, PreviewLimit);
    if (count > shown.size())
        shown << tr("… and %n more", nullptr, int(count - shown.size()));
    ids->setPlainText(shown.join(QLatin1Char('\n')));
    ids->setMaximumHeight(120);
    m_reason->setObjectName(QStringLiteral("replayReason"));
    m_reason->setPlaceholderText(tr("Why? e.g. consumer schema fixed in release 4.2 (required)"));
    m_operator->setObjectName(QStringLiteral("replayOperator"));
    m_oneMore->setChecked(true);
    m_spreadMinutes->setRange(0, 24 * 60);
    m_spreadMinutes->setSuffix(tr(" min"));
    m_spreadMinutes->setSpecialValueText(tr("all due now"));
    m_spreadMinutes->setToolTip(
        tr("Spread the new due times evenly over this window, so a recovering "
           "downstream is not hit all at once"));

    auto *form = m_form = new QFormLayout;
    form->addRow(tr("Reason"), m_reason);
    form->addRow(tr("Operator"), m_operator);
    form->addRow(tr("Budget"), m_oneMore);
    form->addRow(QString(), m_reset);
    form->addRow(tr("Spread over"), m_spreadMinutes);
    if (count > TypedConfirmationAbove) {
        m_confirm = new QLineEdit;
        m_confirm->setObjectName(QStringLiteral("replayConfirm"));
        m_confirm->setPlaceholderText(tr("type %1 to confirm").arg(count));
        form->addRow(tr("Confirm"), m_confirm);
        connect(m_confirm, &QLineEdit::textChanged, this, &ReplayDialog::updateOk);
    }
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    m_ok = buttons->addButton(
        tr("Replay %n event(s)", nullptr, int(count)), QDialogButtonBox::AcceptRole);
    m_ok->setObjectName(QStringLiteral("replayOk"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_reason, &QLineEdit::textChanged, this, &ReplayDialog::updateOk);
    connect(m_operator, &QLineEdit::textChanged, this, &ReplayDialog::updateOk);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(heading);
    layout->addWidget(ids);
    layout->addLayout(form);
    layout->addWidget(buttons);
    updateOk();
}

void ReplayDialog::setStatementReplay(const QString &profileName)
{
    m_heading->setText(
        tr("<b>Replay %n failed event(s)</b> with the %1 profile's replay statement. Each is "
           "replayed in its own transaction, only while it is still failed; the schema keeps "
           "no replay log.",
            nullptr, int(m_count))
            .arg(profileName.toHtmlEscaped()));
    m_form->setRowVisible(m_oneMore, false);
    m_form->setRowVisible(m_reset, false);
    m_form->setRowVisible(m_spreadMinutes, false);
    m_oneMore->setChecked(true);
    m_spreadMinutes->setValue(0);
}

QString ReplayDialog::defaultOperator()
{
    const QString user = qEnvironmentVariable("USER", qEnvironmentVariable("USERNAME"));
    return user.isEmpty() ? QStringLiteral("operator") : user;
}

QString ReplayDialog::operatorName() const
{
    return m_operator->text().trimmed();
}

QString ReplayDialog::reason() const
{
    return m_reason->text().trimmed();
}

bool ReplayDialog::resetBudget() const
{
    return m_reset->isChecked();
}

qint64 ReplayDialog::spreadMs() const
{
    return qint64(m_spreadMinutes->value()) * 60000;
}

bool ReplayDialog::isComplete() const
{
    const bool confirmed = !m_confirm || m_confirm->text().trimmed() == QString::number(m_count);
    return !reason().isEmpty() && !operatorName().isEmpty() && confirmed && m_count > 0;
}

void ReplayDialog::updateOk()
{
    m_ok->setEnabled(isComplete());
}
