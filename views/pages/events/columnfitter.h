// Sizes the event table's columns to their content as rows arrive, each between a floor and a
// ceiling (an aggregate never pushes the others off-screen, the last error gets room to be
// read), growing only, so nothing jumps under the pointer. The columns read first (ID, state,
// failures, last error) are measured from the font metrics of their text in the view's style and
// font, fractions of a pixel rounded up, so an ID is never a pixel short in either theme; they
// are measured again when the style or font changes. It stops for good once the operator
// resizes a column; over the operator's restored widths (WindowSettings) it only widens the
// columns read first, where a new outbox's IDs need it. Only the columns whose cells changed
// since the last fit are measured again: a refresh that changed nothing measures nothing.
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

    void setRestored() { m_restored = true; } // the operator's widths: only key columns grow
    bool isStopped() const { return m_stopped; }
    bool isRestored() const { return m_restored; }
    void fitNow(); // every column
    // The width of the ID, state, failures and last-error columns together: what the table
    // needs to show them whole without scrolling.
    int keyColumnsWidth() const;

signals:
    void fitted(); // after a fit changed widths

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void fitChanged();
    void fitColumn(int column, int floor, int ceiling);
    int textWidth(int column) const;
    void markDirty(int first, int last);

    QTableView *m_view;
    EventListModel *m_model;
    bool m_stopped = false;
    bool m_restored = false;
    bool m_fitting = false;
    QSet<int> m_dirty; // columns changed since the last fit
};
