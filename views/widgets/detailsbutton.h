// "Details": a toggle that shows or hides the raw words behind a cause said in plain words (the
// driver's message, a password masked) in a label of its own, which the caller lays out where the
// words belong. Hidden while there is no detail, or when it says no more than the plain words.
#pragma once

#include <QToolButton>

class QLabel;

class DetailsButton : public QToolButton
{
    Q_OBJECT
public:
    explicit DetailsButton(QWidget *parent = nullptr);

    // The detail shown when open; `plain`: the words already shown (no button when the same).
    void setDetail(const QString &detail, const QString &plain = {});
    QString detail() const;
    QLabel *label() const { return m_label; } // owned by the caller's layout once added

private:
    void update(bool open);

    QLabel *m_label = nullptr;
};
