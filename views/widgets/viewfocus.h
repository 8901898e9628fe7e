// Keyboard focus into a table or tree changes nothing: Qt makes the first row current when a view
// without a current row gets the focus (and a page selects what is current), so Ctrl+2, a
// dialog closing or the window opening would select a row no one chose, or replace the event a
// link asked for. Installed on a view, this marks "no current row" as chosen before the focus
// arrives; Down or a click still goes to the first row.
#pragma once

#include <QObject>

class QAbstractItemView;

class ViewFocus : public QObject
{
    Q_OBJECT
public:
    static void keepSelection(QAbstractItemView *view); // once per view; more calls do nothing

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    using QObject::QObject;
};
