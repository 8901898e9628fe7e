#include "operatordialog.h"

#include "plaintext.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace {

const int PreviewLimit = 50;
const int FormRowsBefore = 2; // the reason and the operator
const int WidgetsBefore = 2; // the heading and the events
const int MinimumWidth = 480; // px: fits a 1366x768 screen with room to spare

void fillEventList(QPlainTextEdit *ids, const QStringList &preview, qint64 count)
{
    QStringList shown;
    for (const QString &id : preview.mid(0, PreviewLimit))
        shown << PlainText::escaped(id); // an ID is the database's text
    if (count > shown.size())
        shown << OperatorDialog::tr("… and %n more", nullptr, int(count - shown.size()));
    ids->setPlainText(shown.join(QLatin1Char('\n')));
}

QPlainTextEdit *eventList(const QStringList &preview, qint64 count)
{
    auto *ids = new QPlainTextEdit;
    ids->setReadOnly(true);
    fillEventList(ids, preview, count);
    ids->setMaximumHeight(120);
    return ids;
}

} // namespace

OperatorDialog::OperatorDialog(
    const Text &text, const QStringList &preview, qint64 count, QWidget *parent)
    : QDialog(parent)
    , m_count(count)
    , m_typedAbove(text.typedAbove)
    , m_name(text.name)
    , m_heading(new QLabel(text.heading))
    , m_form(new QFormLayout)
    , m_operator(new QLineEdit(defaultOperator()))
    , m_reason(new QLineEdit)
{
    setWindowTitle(text.title);
    // Wide enough that a word-wrapped heading and left-out line read as sentences, not columns.
    setMinimumWidth(MinimumWidth);
    m_heading->setWordWrap(true);
    QPlainTextEdit *ids = eventList(preview, count);
    m_events = ids;
    ids->setObjectName(text.name + QStringLiteral("Preview"));
    m_reason->setObjectName(text.name + QStringLiteral("Reason"));
    m_reason->setPlaceholderText(text.reasonHint);
    m_operator->setObjectName(text.name + QStringLiteral("Operator"));
    m_form->addRow(tr("Reason"), m_reason);
    m_form->addRow(tr("Operator"), m_operator);
    if (text.typedAbove >= 0 && count > text.typedAbove)
        addTypedCount();
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    m_ok = buttons->addButton(text.confirm, QDialogButtonBox::AcceptRole);
    m_ok->setObjectName(text.name + QStringLiteral("Ok"));
    // No button is the dialog's default: Enter in a field must not act for the operator.
    for (QAbstractButton *button : buttons->buttons()) {
        if (auto *push = qobject_cast<QPushButton *>(button))
            push->setAutoDefault(false);
    }
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_reason, &QLineEdit::textChanged, this, &OperatorDialog::updateOk);
    connect(m_operator, &QLineEdit::textChanged, this, &OperatorDialog::updateOk);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_heading);
    layout->addWidget(ids);
    layout->addLayout(m_form);
    layout->addWidget(buttons);
    updateOk();
}

void OperatorDialog::showEvent(QShowEvent *event)
{
    QDialog::showEvent(event);
    m_ok->setDefault(false); // QDialogButtonBox makes its accept button the default on showing
    m_reason->setFocus(Qt::OtherFocusReason);
}

void OperatorDialog::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
        event->accept(); // swallowed: QDialog would click the default button
        return;
    }
    QDialog::keyPressEvent(event);
}

void OperatorDialog::addRow(const QString &label, QWidget *field)
{
    m_form->insertRow(FormRowsBefore + m_ownRows++, label, field);
}

void OperatorDialog::addPanel(QWidget *panel)
{
    static_cast<QVBoxLayout *>(layout())->insertWidget(WidgetsBefore + m_panels++, panel);
}

// The wrapped lines arrive after the dialog took its size: grow it to show them all rather
// than let the layout squeeze them (never shrinks what the user resized).
void OperatorDialog::fitHeight()
{
    layout()->activate();
    const int needed = layout()->hasHeightForWidth() ? layout()->totalHeightForWidth(width())
                                                     : layout()->totalSizeHint().height();
    if (height() < needed)
        resize(width(), needed);
}

QString OperatorDialog::defaultOperator()
{
    const QString user = qEnvironmentVariable("USER", qEnvironmentVariable("USERNAME"));
    return user.isEmpty() ? QStringLiteral("operator") : user;
}

QString OperatorDialog::operatorName() const
{
    return m_operator->text().trimmed();
}

QString OperatorDialog::reason() const
{
    return m_reason->text().trimmed();
}

bool OperatorDialog::isComplete() const
{
    const bool typed = m_confirm && m_count > m_typedAbove;
    const bool confirmed = !typed || m_confirm->text().trimmed() == QString::number(m_count);
    return !reason().isEmpty() && !operatorName().isEmpty() && confirmed && m_count > 0;
}

void OperatorDialog::updateOk()
{
    m_ok->setEnabled(isComplete());
}

void OperatorDialog::setCount(qint64 count, const QString &heading, const QString &confirm)
{
    m_count = count;
    m_heading->setText(heading);
    m_ok->setText(confirm);
    if (!m_confirm && m_typedAbove >= 0 && count > m_typedAbove)
        addTypedCount();
    if (m_confirm) {
        m_confirm->setPlaceholderText(tr("type %1 to confirm").arg(count));
        m_form->setRowVisible(m_confirm, count > m_typedAbove);
    }
    updateOk();
}

// The typed count, the form's last row.
void OperatorDialog::addTypedCount()
{
    m_confirm = new QLineEdit;
    m_confirm->setObjectName(m_name + QStringLiteral("Confirm"));
    m_confirm->setPlaceholderText(tr("type %1 to confirm").arg(m_count));
    m_form->addRow(tr("Confirm"), m_confirm);
    connect(m_confirm, &QLineEdit::textChanged, this, &OperatorDialog::updateOk);
}

void OperatorDialog::setEvents(const QStringList &ids, qint64 count)
{
    fillEventList(m_events, ids, count);
}

void OperatorDialog::setLeftOut(const QStringList &lines)
{
    if (!m_leftOut) {
        m_leftOut = new QLabel;
        m_leftOut->setObjectName(m_name + QStringLiteral("LeftOut"));
        m_leftOut->setTextFormat(Qt::PlainText); // IDs are the database's text: never markup
        m_leftOut->setWordWrap(true);
        m_leftOut->setTextInteractionFlags(Qt::TextSelectableByMouse);
        m_leftOut->setStyleSheet(QStringLiteral("font-weight: bold"));
        addPanel(m_leftOut);
    }
    QStringList shown;
    for (const QString &line : lines)
        shown << PlainText::escaped(line);
    m_leftOut->setText(shown.join(QLatin1Char('\n')));
    m_leftOut->setVisible(!shown.isEmpty());
    fitHeight();
}

QString OperatorDialog::leftOutText() const
{
    return m_leftOut && !m_leftOut->isHidden() ? m_leftOut->text() : QString();
}
