// The filter bar above the event table: derived state, a search (an event ID prefix, instant,
// or text anywhere in ID, type, aggregate or last error, slow on a big table), minimum
// failures, age range, error category, "payload contains" (a JSON fragment or a text, checked
// before anything is queried: a bad one is named under the bar and nothing is emitted)
// (and, set from elsewhere, an event type and an error
// signature: a diagnosis finding's subject or the Errors tab's group). Emits the filter as a
// value when the user changes it. At the end of the payload row, Find event: an event ID, looked
// up whatever the filters (it filters nothing).
#pragma once

#include "eventfilter.h"
#include "outboxprofile.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTimer;

class FilterBar : public QWidget
{
    Q_OBJECT
public:
    explicit FilterBar(QWidget *parent = nullptr);

    EventFilter filter() const;
    void setFilter(const EventFilter &filter);
    // Disables (and clears) the filters on what the profile's schema lacks: failures, age
    // (created_at), error category, and the in-flight / lease-expired states.
    void setProfile(const OutboxProfile &profile);
    void clearSearch(); // Esc: the search emptied, the rest of the filter kept
    // Find event: an event ID shown whatever the filters (findRequested; EventsPage answers).
    QLineEdit *findField() const { return m_find; }
    QLineEdit *searchField() const { return m_search; } // `/` on the Events page
    void focusFind(); // Ctrl+F: the Find event field, its text selected

signals:
    void filterChanged(const EventFilter &filter);
    void findRequested(const QString &eventId);

private:
    void emitSoon();
    void emitNow();
    // Emits the filter unless the payload search is refused (then names why under the bar).
    void emitChecked();
    QString payloadSearch() const; // the payload field's text when it reads, else empty
    bool isPrefixSearch() const;
    void showSearchMode();
    void setupFields();
    void nameFields();
    void arrangeFields();
    void connectFields();

    QComboBox *m_state = nullptr;

    QComboBox *m_searchMode = nullptr;
    QLineEdit *m_search = nullptr;
    QSpinBox *m_minFailures = nullptr;
    QLineEdit *m_minAge = nullptr;
    QLineEdit *m_maxAge = nullptr;
    QComboBox *m_category = nullptr;
    QLineEdit *m_payload = nullptr;
    QLabel *m_payloadError = nullptr;
    QLineEdit *m_find = nullptr;
    QTimer *m_debounce = nullptr;
    // No field of their own: set by setFilter() (a diagnosis finding's subject, an error group)
    // and kept until the next setFilter().
    QString m_eventType;
    QString m_errorSignature;
};
