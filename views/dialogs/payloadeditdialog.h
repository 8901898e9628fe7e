// Edit and replay's dialog: a DEAD event's payload in a JSON editor (redacted values masked as
// "***", which keep their stored values on save), checked as it is typed: while it is not JSON
// (or larger than an edit may be) the confirm button is disabled and the parse error is shown
// with its line and column. A check box reveals the redacted values (the reveal is recorded in
// the revision). Says plainly what an edit cannot do: a consumer that already applied the event
// answers DUPLICATE and ignores the new payload. The reason and the operator as every operator
// action asks them (OperatorDialog).
#pragma once

#include "operatordialog.h"

class QCheckBox;
class QPlainTextEdit;

class PayloadEditDialog : public OperatorDialog
{
    Q_OBJECT
public:
    // `masked` and `revealed`: the payload as the editor shows it either way
    // (PayloadEditor::editableText).
    PayloadEditDialog(const QString &eventId, const QString &masked, const QString &revealed,
        QWidget *parent = nullptr);

    QString payloadText() const;
    bool isRevealed() const;
    // Why the payload cannot be saved ("the new payload is not JSON: … at line 3, column 4"),
    // or empty.
    QString validationText() const;
    bool isComplete() const override;

    // What an edit cannot do, as the dialog says it.
    static QString cannotText();

private:
    void onReveal(bool revealed);
    void validate();

    QString m_masked;
    QString m_revealed;
    QPlainTextEdit *m_editor = nullptr;
    class QLabel *m_error = nullptr;
    QCheckBox *m_reveal = nullptr;
    QString m_invalid;
};
