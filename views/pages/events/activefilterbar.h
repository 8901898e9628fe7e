// The line above the event table that shows the filter the table is asked to show, one removable
// chip per criterion ("State: DEAD ×", "Error: timeout after <n> ms ×"): a click on a chip, or
// Backspace or Delete on it, removes that criterion; "Clear all" removes every one. While the
// rows of a new filter are being read it says "searching…" (the table greys its old rows
// meanwhile), so the line never names a filter the rows shown do not match. Beside the chips,
// Find event (an event ID, whatever the filters: EventsPage answers it).
#pragma once

#include "eventfilter.h"

#include <QWidget>

class QHBoxLayout;
class QLabel;
class QLineEdit;
class QToolButton;

class ActiveFilterBar : public QWidget
{
    Q_OBJECT
public:
    explicit ActiveFilterBar(QWidget *parent = nullptr);

    void setFilter(const EventFilter &filter);
    void setSearching(bool searching);
    bool isSearching() const { return m_searching; }
    // "Filtered: State: DEAD, Error: …" (and " — searching…"); empty when nothing is filtered.
    QString text() const;
    QToolButton *clearButton() const { return m_clear; }
    QList<QToolButton *> chips() const { return m_chips; }
    QLineEdit *findField() const { return m_find; }
    // What Find event answered: "No event with ID …", "… is hidden by State: PENDING …".
    void setFindMessage(const QString &message);
    QString findMessage() const;
    void focusFind(); // Ctrl+F

signals:
    void removeRequested(EventFilter::Field field);
    void clearRequested();
    void findRequested(const QString &eventId);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void rebuildChips();
    void removeChip(QToolButton *chip);

    EventFilter m_filter;
    bool m_searching = false;
    QHBoxLayout *m_chipRow = nullptr;
    QList<QToolButton *> m_chips;
    QLabel *m_none = nullptr;
    QLabel *m_searchingLabel = nullptr;
    QToolButton *m_clear = nullptr;
    QLineEdit *m_find = nullptr;
    QLabel *m_findMessage = nullptr;
};
