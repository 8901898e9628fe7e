// Asks before resolving parked (DEAD) events: which (a preview of their IDs), who and why. A
// resolved event is closed without delivery and never claimed again, so the dialog says so and
// needs a reason and an operator, which resolve_log records.
#pragma once

#include <QDialog>

class QLineEdit;
class QPushButton;

class ResolveDialog : public QDialog
{
    Q_OBJECT
public:
    // `preview` lists some or all of the `count` events.
    ResolveDialog(const QStringList &preview, qint64 count, QWidget *parent = nullptr);

    QString operatorName() const;
    QString reason() const;
    bool isComplete() const; // a reason and an operator

private:
    void updateOk();

    qint64 m_count = 0;
    QLineEdit *m_operator = nullptr;
    QLineEdit *m_reason = nullptr;
    QPushButton *m_ok = nullptr;
};
