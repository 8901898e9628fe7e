#include "resolvedialog.h"

#include "replaydialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace {

const int PreviewLimit = 50;

} // namespace

ResolveDialog::ResolveDialog(const QStringList &preview, qint64 count, QWidget *parent)
    : QDialog(parent)
    , m_count(count)
    , m_operator(new QLineEdit(ReplayDialog::defaultOperator()))
    , m_reason(new QLineEdit)
{
    setWindowTitle(tr("Resolve parked events"));
    auto *heading = new QLabel(
        tr("<b>Resolve %n parked event(s)</b> without delivering them. A resolved event "
           "leaves the DEAD count, stays in the table as RESOLVED and is never claimed again; "
           "each is resolved in its own transaction, only while it is still DEAD, and "
           "recorded in resolve_log.",
            nullptr, int(count)));
    heading->setWordWrap(true);
    auto *ids = new QPlainTextEdit;
    ids->setObjectName(QStringLiteral("resolvePreview"));
    ids->setReadOnly(true);
    QStringList shown = preview.mid(0, PreviewLimit);
    if (count > shown.size())
        shown << tr("… and %n more", nullptr, int(count - shown.size()));
    ids->setPlainText(shown.join(QLatin1Char('\n')));
    ids->setMaximumHeight(120);
    m_reason->setObjectName(QStringLiteral("resolveReason"));
    m_reason->setPlaceholderText(tr("Why? e.g. order cancelled, no delivery needed (required)"));
    m_operator->setObjectName(QStringLiteral("resolveOperator"));

    auto *form = new QFormLayout;
    form->addRow(tr("Reason"), m_reason);
    form->addRow(tr("Operator"), m_operator);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    m_ok = buttons->addButton(
        tr("Resolve %n event(s)", nullptr, int(count)), QDialogButtonBox::AcceptRole);
    m_ok->setObjectName(QStringLiteral("resolveOk"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_reason, &QLineEdit::textChanged, this, &ResolveDialog::updateOk);
    connect(m_operator, &QLineEdit::textChanged, this, &ResolveDialog::updateOk);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(heading);
    layout->addWidget(ids);
    layout->addLayout(form);
    layout->addWidget(buttons);
    updateOk();
}

QString ResolveDialog::operatorName() const
{
    return m_operator->text().trimmed();
}

QString ResolveDialog::reason() const
{
    return m_reason->text().trimmed();
}

bool ResolveDialog::isComplete() const
{
    return !reason().isEmpty() && !operatorName().isEmpty() && m_count > 0;
}

void ResolveDialog::updateOk()
{
    m_ok->setEnabled(isComplete());
}
