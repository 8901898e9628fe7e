// Adding an operator note (or clearing the notes) on a DEAD event or an error group: the target
// named, the operator (prefilled as every operator dialog does), the text and the marker (none,
// investigating, on hold). The words are checked as they are typed with the model's own rule
// (OperatorNotes::invalid: required, at most 4000 characters, no control characters): while
// they are refused the confirm button is disabled and the reason is shown. HTML is text here as
// everywhere a note is shown. In Clear mode only the operator is asked (who cleared them).
#pragma once

#include "operatornotes.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

class NoteDialog : public QDialog
{
    Q_OBJECT
public:
    enum class Mode { Add, Clear };

    NoteDialog(Mode mode, const NoteTarget &target, QWidget *parent = nullptr);

    // The request as typed (its `now` left to the caller).
    NoteRequest request() const;
    QString operatorName() const;
    // Why the words cannot be saved, as the model says it, or empty.
    QString validationText() const;
    bool isComplete() const { return validationText().isEmpty(); }

    void setText(const QString &text);
    void setMarker(const QString &marker); // "", "investigating" or "on-hold"
    void setOperatorName(const QString &name);

private:
    void validate();

    Mode m_mode;
    NoteTarget m_target;
    QLineEdit *m_operator = nullptr;
    QPlainTextEdit *m_text = nullptr;
    QComboBox *m_marker = nullptr;
    QLabel *m_error = nullptr;
    QPushButton *m_ok = nullptr;
};
