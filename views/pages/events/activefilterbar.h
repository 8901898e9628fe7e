// The line above the event table that shows the filter the table is asked to show, one removable
// chip per criterion ("State: DEAD ×", "Error: timeout after <n> ms ×"): a click on a chip, or
// Backspace or Delete on it, removes that criterion; "Clear all" removes every one. While the
// rows of a new filter are being read it says "searching…" (the table greys its old rows
// meanwhile; after a failed read, "not applied"), so the line never names a filter the rows
// shown do not match. Under the chips, what Find event answered (the filter that hides the event,
// or that no event has the ID). Hidden while there is neither a filter nor an answer.
#pragma once

#include "eventfilter.h"

#include <QWidget>

class QHBoxLayout;
class QLabel;
class QToolButton;

class ActiveFilterBar : public QWidget
{
    Q_OBJECT
public:
    explicit ActiveFilterBar(QWidget *parent = nullptr);

    void setFilter(const EventFilter &filter);
    // Whether the rows shown answer the filter: Searching while its read runs, Failed when that
    // read failed and the rows are still the previous filter's.
    enum class Rows { Current, Searching, Failed };
    void setRows(Rows rows);
    Rows rows() const { return m_rows; }
    // "Filtered: State: DEAD, Error: …" (and " — searching…" or " — not applied: …"); empty
    // when nothing is filtered.
    QString text() const;
    QToolButton *clearButton() const { return m_clear; }
    QList<QToolButton *> chips() const { return m_chips; }
    // What Find event answered: "No event with ID …", "… is hidden by State: PENDING …".
    void setFindMessage(const QString &message);
    QString findMessage() const;

signals:
    void removeRequested(EventFilter::Field field);
    void clearRequested();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void rebuildChips();
    void updateVisibility();
    QString rowsText() const;
    void removeChip(QToolButton *chip);

    EventFilter m_filter;
    Rows m_rows = Rows::Current;
    QHBoxLayout *m_chipRow = nullptr;
    QList<QToolButton *> m_chips;
    QLabel *m_none = nullptr;
    QLabel *m_rowsLabel = nullptr; // searching…, not applied
    QToolButton *m_clear = nullptr;
    QLabel *m_findMessage = nullptr;
};
