#include "notedialog.h"

#include "operatordialog.h"
#include "themecolours.h"

#include "plaintext.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

NoteDialog::NoteDialog(Mode mode, const NoteTarget &target, QWidget *parent)
    : QDialog(parent)
    , m_mode(mode)
    , m_target(target)
    , m_operator(new QLineEdit(OperatorDialog::defaultOperator()))
    , m_text(new QPlainTextEdit)
    , m_marker(new QComboBox)
    , m_error(new QLabel)
{
    const bool add = mode == Mode::Add;
    const bool event = target.isEvent();
    setObjectName(add ? QStringLiteral("noteDialog") : QStringLiteral("clearNotesDialog"));
    setWindowTitle(add ? tr("Add note") : tr("Clear notes"));
    auto *layout = new QVBoxLayout(this);
    auto *about = new QLabel;
    about->setTextFormat(Qt::PlainText); // an event ID or an error's words
    about->setWordWrap(true);
    about->setObjectName(QStringLiteral("noteTarget"));
    if (add)
        about->setText(event
                ? tr("A note on DEAD event %1, with who and when; every operator sees it in the "
                     "table, the detail pane and the Errors tab.")
                      .arg(PlainText::escaped(target.eventId))
                : tr("A note on the error group \"%1\": it covers every DEAD event that fails "
                     "this way.")
                      .arg(PlainText::escaped(target.errorGroup)));
    else
        about->setText(event ? tr("Clear the notes on %1? They are kept, marked as cleared by "
                                  "you; they no longer cover the event.")
                                   .arg(PlainText::escaped(target.eventId))
                             : tr("Clear the notes on the error group \"%1\"? They are kept, "
                                  "marked as cleared by you; they no longer cover its events.")
                                   .arg(PlainText::escaped(target.errorGroup)));
    layout->addWidget(about);
    auto *form = new QFormLayout;
    m_operator->setObjectName(QStringLiteral("noteOperator"));
    form->addRow(tr("Operator"), m_operator);
    m_text->setObjectName(QStringLiteral("noteText"));
    m_text->setTabChangesFocus(true);
    m_text->setPlaceholderText(tr("Known issue, fix deploys at 14:00, do not replay"));
    m_marker->setObjectName(QStringLiteral("noteMarker"));
    m_marker->addItem(tr("No marker"), QString());
    m_marker->addItem(tr("Investigating"), OperatorNotes::Investigating);
    m_marker->addItem(tr("On hold (left out of Replay all matching)"), OperatorNotes::OnHold);
    if (add) {
        form->addRow(tr("Note"), m_text);
        form->addRow(tr("Marker"), m_marker);
    } else { // not shown, but owned by the dialog (a widget in no layout has no parent)
        m_text->setParent(this);
        m_marker->setParent(this);
        m_text->hide();
        m_marker->hide();
    }
    layout->addLayout(form);
    m_error->setObjectName(QStringLiteral("noteError"));
    m_error->setTextFormat(Qt::PlainText);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: %1").arg(ThemeColours::warningText().name()));
    layout->addWidget(m_error);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    m_ok = buttons->addButton(
        add ? tr("Add note") : tr("Clear notes"), QDialogButtonBox::AcceptRole);
    m_ok->setObjectName(QStringLiteral("noteConfirm"));
    m_ok->setAutoDefault(false); // Enter in a field must not act for the operator
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (isComplete())
            accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    connect(m_operator, &QLineEdit::textChanged, this, &NoteDialog::validate);
    connect(m_text, &QPlainTextEdit::textChanged, this, &NoteDialog::validate);
    resize(520, add ? 320 : 180);
    validate();
    (add ? static_cast<QWidget *>(m_text) : m_operator)->setFocus();
}

NoteRequest NoteDialog::request() const
{
    NoteRequest request;
    request.target = m_target;
    request.operatorName = operatorName();
    request.text = m_text->toPlainText();
    request.marker = m_marker->currentData().toString();
    return request;
}

QString NoteDialog::operatorName() const
{
    return m_operator->text().trimmed();
}

QString NoteDialog::validationText() const
{
    if (m_mode == Mode::Clear) {
        NoteRequest probe = request();
        probe.text = QStringLiteral("-"); // only the operator is asked
        return OperatorNotes::invalid(probe);
    }
    return OperatorNotes::invalid(request());
}

void NoteDialog::setText(const QString &text)
{
    m_text->setPlainText(text);
}

void NoteDialog::setMarker(const QString &marker)
{
    m_marker->setCurrentIndex(std::max(0, m_marker->findData(marker)));
}

void NoteDialog::setOperatorName(const QString &name)
{
    m_operator->setText(name);
}

void NoteDialog::validate()
{
    const QString why = validationText();
    // An empty text is not an error to shout about before anything was typed.
    const bool blank = m_mode == Mode::Add && m_text->toPlainText().isEmpty();
    m_error->setText(blank ? QString() : why);
    m_ok->setEnabled(why.isEmpty());
}
