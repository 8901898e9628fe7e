#include "payloadeditdialog.h"

#include "payloadeditor.h"

#include "plaintext.h"

#include <QCheckBox>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>

namespace {

OperatorDialog::Text textFor(const QString &eventId)
{
    return {QStringLiteral("edit"), PayloadEditDialog::tr("Edit and replay"),
        PayloadEditDialog::tr("<b>Edit the payload of %1 and replay it</b>: the event keeps its "
                              "event ID and becomes due now; its payload before the edit is kept, "
                              "unchanged, in payload_revision, with who, why and when.")
            .arg(PlainText::escaped(eventId).toHtmlEscaped()),
        PayloadEditDialog::tr("Why? e.g. upstream sent quantity as text (required)"),
        PayloadEditDialog::tr("Save and replay"), -1};
}

} // namespace

PayloadEditDialog::PayloadEditDialog(
    const QString &eventId, const QString &masked, const QString &revealed, QWidget *parent)
    : OperatorDialog(textFor(eventId), {eventId}, 1, parent)
    , m_masked(masked)
    , m_revealed(revealed)
    , m_editor(new QPlainTextEdit(masked))
    , m_error(new QLabel)
    , m_reveal(new QCheckBox(tr("Show the redacted values and allow changing them (recorded)")))
{
    // One event, named in the heading: the dialog's event list would only repeat it.
    if (auto *ids = findChild<QPlainTextEdit *>(QStringLiteral("editPreview")))
        ids->hide();
    m_editor->setObjectName(QStringLiteral("editPayload"));
    m_editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_editor->setMinimumHeight(200);
    m_editor->setTabChangesFocus(true);
    m_error->setObjectName(QStringLiteral("editPayloadError"));
    m_error->setWordWrap(true);
    m_error->setTextFormat(Qt::PlainText);
    m_reveal->setObjectName(QStringLiteral("editReveal"));
    auto *cannot = new QLabel(cannotText());
    cannot->setObjectName(QStringLiteral("editCannot"));
    cannot->setWordWrap(true);
    cannot->setTextFormat(Qt::PlainText);
    addPanel(m_editor);
    addPanel(m_error);
    addPanel(m_reveal);
    addPanel(cannot);
    connect(m_editor, &QPlainTextEdit::textChanged, this, &PayloadEditDialog::validate);
    connect(m_reveal, &QCheckBox::toggled, this, &PayloadEditDialog::onReveal);
    resize(640, 560);
    validate();
}

QString PayloadEditDialog::cannotText()
{
    return tr("If the consumer already applied this event (its acknowledgement was lost), it "
              "answers DUPLICATE and ignores the new payload: the event ID is what it "
              "deduplicates on.");
}

QString PayloadEditDialog::payloadText() const
{
    return m_editor->toPlainText();
}

bool PayloadEditDialog::isRevealed() const
{
    return m_reveal->isChecked();
}

QString PayloadEditDialog::validationText() const
{
    return m_invalid;
}

bool PayloadEditDialog::isComplete() const
{
    return OperatorDialog::isComplete() && m_invalid.isEmpty();
}

// The other text replaces what was typed: a masked value and a revealed one never mix.
void PayloadEditDialog::onReveal(bool revealed)
{
    m_editor->setPlainText(revealed ? m_revealed : m_masked);
}

void PayloadEditDialog::validate()
{
    m_invalid = PayloadEditor::invalidity(m_editor->toPlainText());
    m_error->setText(m_invalid);
    m_error->setVisible(!m_invalid.isEmpty());
    updateOk();
}
