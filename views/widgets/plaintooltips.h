// Every widget's tooltip shown as the text it holds. Qt shows a tooltip as markup when
// Qt::mightBeRichText guesses so, and many tooltips quote what a database, a profile file or a
// link controls (a server's refusal, an error, an outbox's name): "<h1>REPLAY ALL NOW</h1>"
// must read as written. An application-wide event filter shows each QWidget's tooltip through
// PlainText::toolTip, so a widget's setToolTip() takes plain text and nothing else needs to
// remember. Item views' cells are the delegate's and the model's (PlainText::toolTip as well).
#pragma once

#include <QObject>

class PlainToolTips : public QObject
{
    Q_OBJECT
public:
    // Installs the filter on the application once; later calls do nothing.
    static void install();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    using QObject::QObject;
};
