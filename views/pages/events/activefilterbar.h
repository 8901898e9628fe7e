// One line above the event table saying which filter is active ("Showing: state dead") with a
// button that clears it in one click; hidden while nothing is filtered.
#pragma once

#include "eventfilter.h"

#include <QWidget>

class QLabel;
class QToolButton;

class ActiveFilterBar : public QWidget
{
    Q_OBJECT
public:
    explicit ActiveFilterBar(QWidget *parent = nullptr);

    void setFilter(const EventFilter &filter);
    QString text() const;
    QToolButton *clearButton() const { return m_clear; }

signals:
    void clearRequested();

private:
    QLabel *m_label = nullptr;
    QToolButton *m_clear = nullptr;
};
