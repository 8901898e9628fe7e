// The frame every operator action's confirmation shares (replay, edit and replay, resolve and
// reopen): a heading that says what will happen, the events (some or all of
// them listed), the reason and the operator (the OS user by default) that the action's audit
// log records, a typed count above a threshold, and the confirm button, enabled only when all
// of that is given. It opens with the focus on the reason; Enter never confirms (only a click,
// or Space on the focused button, does): an operator typing a reason ends it with Enter. An
// action adds its own rows (addRow) and panels (addPanel) between.
#pragma once

#include <QDialog>

class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;

class OperatorDialog : public QDialog
{
    Q_OBJECT
public:
    // The action's own words; `name` prefixes the widgets' object names ("replayReason").
    struct Text
    {
        QString name; // "replay"
        QString title; // the window title
        QString heading; // rich text
        QString reasonHint; // the reason's placeholder: an example
        QString confirm; // the confirm button: "Replay 3 events"
        qint64 typedAbove = -1; // above this many events the count must be typed; -1: never
    };
    // Replay's and resolve's threshold: above it the operator types the count to confirm.
    static constexpr qint64 TypedConfirmationAbove = 100;

    // `preview` lists some or all of the `count` events.
    OperatorDialog(
        const Text &text, const QStringList &preview, qint64 count, QWidget *parent = nullptr);

    QString operatorName() const;
    QString reason() const;
    // A reason, an operator and, above the threshold, the typed count (and what an action adds).
    virtual bool isComplete() const;

    static QString defaultOperator();

    // What the action's plan leaves out and why (ActionPlan::leftOutLines): a bold, word-wrapped
    // panel below the events ("<name>LeftOut"), hidden when there is no line.
    void setLeftOut(const QStringList &lines);
    QString leftOutText() const; // empty when nothing is left out

protected:
    void showEvent(QShowEvent *event) override; // the focus on the reason
    void keyPressEvent(QKeyEvent *event) override; // Enter confirms nothing
    qint64 count() const { return m_count; }
    QLabel *heading() const { return m_heading; }
    QFormLayout *form() const { return m_form; }
    // A row of the action's own, after the reason and the operator (and before the typed count).
    void addRow(const QString &label, QWidget *field);
    // A panel of the action's own, between the events and the form.
    void addPanel(QWidget *panel);
    // Grows the dialog to show a panel whose text arrived after it took its size.
    void fitHeight();
    // Enables the confirm button as isComplete() says (an action's own field changed).
    void updateOk();
    // The count that will be acted on, once the action's plan knows it: the heading, "type N to
    // confirm" (shown only above the threshold) and the confirm button all say it.
    void setCount(qint64 count, const QString &heading, const QString &confirm);
    // The events listed: some or all of the `count` that will be acted on.
    void setEvents(const QStringList &ids, qint64 count);

private:
    void addTypedCount();

    qint64 m_count = 0;
    qint64 m_typedAbove = -1;
    QString m_name;
    QLabel *m_heading = nullptr;
    class QPlainTextEdit *m_events = nullptr;
    int m_panels = 0; // panels the action added below the events
    QFormLayout *m_form = nullptr;
    int m_ownRows = 0; // rows the action added to the form
    QLineEdit *m_operator = nullptr;
    QLineEdit *m_reason = nullptr;
    QLineEdit *m_confirm = nullptr;
    QPushButton *m_ok = nullptr;
    QLabel *m_leftOut = nullptr; // setLeftOut's panel, made on its first call
};
