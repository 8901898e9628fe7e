// Asks an operator to confirm a replay of parked (DEAD) events: how many and which, a required
// reason, who they are (the OS user by default), whether to reset the attempt budget or allow
// one more attempt, and a window to spread the new due times over. Above 100 events the
// operator types the count to confirm.
#pragma once

#include <QDialog>

class QButtonGroup;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class QSpinBox;

class ReplayDialog : public QDialog
{
    Q_OBJECT
public:
    static constexpr qint64 TypedConfirmationAbove = 100;

    // `preview` lists some or all of the `count` events.
    ReplayDialog(const QStringList &preview, qint64 count, QWidget *parent = nullptr);

    QString operatorName() const;
    QString reason() const;
    bool resetBudget() const;
    qint64 spreadMs() const;
    bool isComplete() const; // a reason, an operator and, above 100 events, the typed count

    static QString defaultOperator();

    // Another library's table: its profile's fenced statement replays, so there is no budget
    // choice, no spread window and no replay log; those rows are hidden and the heading says so.
    void setStatementReplay(const QString &profileName);

private:
    void updateOk();

    qint64 m_count = 0;
    QLabel *m_heading = nullptr;
    QFormLayout *m_form = nullptr;
    QLineEdit *m_operator = nullptr;
    QLineEdit *m_reason = nullptr;
    QRadioButton *m_reset = nullptr;
    QRadioButton *m_oneMore = nullptr;
    QSpinBox *m_spreadMinutes = nullptr;
    QLineEdit *m_confirm = nullptr;
    QPushButton *m_ok = nullptr;
};
