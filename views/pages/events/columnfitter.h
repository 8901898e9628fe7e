// Sizes the event table's columns to their content as rows arrive, each between a floor and a
// ceiling (an aggregate never pushes the others off-screen, the last error gets room to be
// read), growing only, so nothing jumps under the pointer. It stops for good once the operator
// resizes a column, or when the operator's own widths were restored (WindowSettings). Only the
// columns whose cells changed since the last fit are measured again: a refresh that changed
// nothing measures nothing.
#pragma once

#include <QObject>
#include <QSet>

class EventListModel;
class QTableView;

class ColumnFitter : public QObject
{
    Q_OBJECT
public:
    static constexpr int MinWidth = 48;
    static constexpr int MaxWidth = 260;
    static constexpr int LastMinWidth = 240; // the last error: a sentence, not one word
    static constexpr int LastMaxWidth = 600;

    ColumnFitter(QTableView *view, EventListModel *model, QObject *parent = nullptr);

    void setRestored() { m_stopped = true; } // the operator's widths: never fit over them
    bool isStopped() const { return m_stopped; }
    void fitNow(); // every column

private:
    void fitChanged();
    void fitColumn(int column, int floor, int ceiling);
    void markDirty(int first, int last);


    QTableView *m_view;
    EventListModel *m_model;
    bool m_stopped = false;
    bool m_fitting = false;
    QSet<int> m_dirty; // columns changed since the last fit
};
