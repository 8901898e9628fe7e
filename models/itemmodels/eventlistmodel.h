// The event table: delivery_outbox rows (never the payload), filtered and sorted in SQL with
// bound values, fetched a page at a time by keyset (WHERE (key, event_id) > last seen), so the
// first page and a far one cost the same and nothing reads the whole table.
//
// No statement runs on the GUI thread: an EventQueryClient reads the pages on its own thread and
// connection, and the model applies the answer to its newest request when it comes (loaded()).
// While a read runs the model keeps its rows and isLoading() is true; a filter or sort change
// supersedes the read that runs (PostgreSQL cancels it on the server). A failed or timed-out read
// keeps the rows too and says why (errorOccurred(), lastError()).
//
// The table keeps its own cadence (cadence()): after a health snapshot whose figures changed it
// reads its rows again no sooner than its own reads' cost allows, and what it costs is never
// charged to the health refresh.
//
// The model holds a bounded window of at most MaxRows rows, however far the user scrolls:
// fetching a page below drops as many rows at the top, and fetchPrevious() brings them back
// (keyset backwards) while dropping rows at the bottom. A view keeps its place by following
// windowShifted() (EventWindowScroller does, and fetches the previous page at the top).
#pragma once

#include "dbconnection.h"
#include "eventfilter.h"
#include "eventpage.h"
#include "outboxprofile.h"

#include <QAbstractTableModel>
#include <QElapsedTimer>
#include <QSet>
#include <memory>
#include <optional>

class EventQueryClient;
class EventTableCadence;
struct EventQueryState;

class EventListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        EventIdColumn,
        TypeColumn,
        AggregateColumn,
        StateColumn,
        FailuresColumn,
        AgeColumn,
        NextAttemptColumn,
        ErrorCategoryColumn,
        LastErrorColumn,
        ColumnCount
    };
    // NoteRole: a DEAD row's strongest marker ("on-hold", "investigating", "note"; "" for none).
    // The display text of the ID, type, aggregate, error category and last error is
    // PlainText::escaped (a U+202E or a newline shown as an escape); RawTextRole is the value as
    // stored, for filtering and copying.
    enum Role { EventIdRole = Qt::UserRole, StateRole, StatusRole, NoteRole, RawTextRole };

    static constexpr int PageSize = 200;
    static constexpr int MaxRows = 10 * PageSize;
    static constexpr int DefaultStatementTimeoutMs = 10000;

    explicit EventListModel(QObject *parent = nullptr);
    ~EventListModel() override;

    // Read-only, no schema validation (the window validated it), and the statement timeout of
    // the setting window/statementTimeoutMs (default 10 s; PostgreSQL).
    static OpenOptions defaultOpenOptions();
    static int statementTimeoutMs(); // the setting window/statementTimeoutMs

    // Where the rows come from: the worker opens its own connection there (reloads).
    void setSource(const DatabaseUrl &url, const OpenOptions &options = defaultOpenOptions());
    // Another library's table read through its profile's source (reloads when a source is set;
    // set it first to read the profile's table from the first read on). A column the schema
    // lacks shows "n/a" and sorts by event ID instead.
    void setProfile(const OutboxProfile &profile);
    bool isColumnAvailable(int column) const { return !m_unavailable.contains(column); }
    void setFilter(const EventFilter &filter); // reloads from the first page
    const EventFilter &filter() const { return m_filter; }
    // The time ages and derived states are shown at; the cells whose text it moves on (an age
    // reaching its next unit) are announced (dataChanged), so the table keeps time without
    // reading rows again.
    void setNow(qint64 now);
    qint64 now() const { return m_now; }
    int sortColumn() const { return m_sortColumn; }
    Qt::SortOrder sortOrder() const { return m_sortOrder; }
    // Reads the window again from its first row on (from the very first when the window starts
    // there), at least one page, keeping the number of rows stable. Skipped (false) while
    // another read runs.
    bool refresh();
    // Whether rows precede the window, and a page of them brought in at the top.
    bool canFetchPrevious() const { return !m_atStart; }
    void fetchPrevious();

    bool isLoading() const { return m_pendingId != 0; }
    // How long the newest read has run (restarted by each new read, so a search typed over
    // another counts from its own start); -1 while none runs.
    qint64 loadingElapsedMs() const;
    // When the table reads its rows again after a snapshot (EventTableCadence::refreshSoon).
    EventTableCadence *cadence() const { return m_cadence; }
    // A new filter's or sort's first page is being read: the rows shown answer the old one.
    bool isReloading() const { return isLoading() && m_pendingKind == Kind::Reload; }
    // While an answer is being applied: rows move under the view, and a current row that
    // changes then is the model's doing, not the user's.
    bool isApplying() const { return m_applying; }
    // Matching rows: exact up to EventPageAnswer::CountLimit, CountLimit + 1 for more, -1 while
    // unknown; and in words: "No events match", "1 event matches", "more than 10,000 events match".
    qint64 matchCount() const { return m_count; }
    QString matchCountText() const;
    QString lastError() const { return m_lastError; }
    bool hasTimedOut() const { return m_timedOut; }
    // The worker's counters (tests, benchmarks): superseded statements the server cancelled,
    // requests skipped before they ran, statements executed.
    const EventQueryState *queryState() const;

    QString eventIdAt(int row) const;
    int rowOfEvent(const QString &eventId) const;

    // "failures:desc", "Age", "next attempt:asc": a column title (case-insensitive, '-' or '_'
    // for a space) of a column sortable in SQL, and an optional order (ascending by default).
    static std::optional<std::pair<int, Qt::SortOrder>> sortFromText(
        const QString &text, QString *error);
    static QString columnTitle(int column);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

signals:
    // `rows` rows were added (positive) or dropped (negative) at the top of the window.
    void windowShifted(int rows);
    void loaded(); // an answer was applied: the rows are the newest read
    void loadingChanged(bool loading);
    void matchCountChanged();
    void errorOccurred(const QString &message); // the rows stay as they were
    // A read of the window's rows (a new filter or sort, or a refresh after a snapshot) was
    // answered, or failed: what its statements cost. The table's own cadence follows it
    // (EventTableCadence); the health refresh never does.
    void refreshCost(qint64 ms);

private:
    using Kind = EventPageRequest::Kind;
    using Anchor = EventPageRequest::Anchor;

    static bool isSortable(int column);
    QString derivedState(const EventRow &row, qint64 now) const;
    QVariant displayText(const EventRow &row, int column, qint64 now) const;
    void emitChangedCells(const QList<EventRow> &before, int rows);
    QString sortExpression() const;
    EventPageRequest request(Kind kind, int limit, const EventRow *anchor, Anchor side) const;
    void sendRequest(const EventPageRequest &request);
    void reload();
    void accept(const EventPageAnswer &answer);
    void reportFailure(const EventPageAnswer &answer);
    void applyReload(const QList<EventRow> &rows);
    void applyRefresh(const QList<EventRow> &rows);
    void applyNext(const QList<EventRow> &rows);
    void applyPrevious(const QList<EventRow> &rows);
    void setCount(qint64 count);
    void dropTop();
    void dropBottom();

    std::unique_ptr<EventQueryClient> m_client;
    Engine m_engine = Engine::PostgreSql; // the source's, for a profile's derived table
    std::optional<OutboxProfile> m_profile;
    QString m_source = QStringLiteral("delivery_outbox");
    QSet<int> m_unavailable; // columns the profile's schema lacks
    EventFilter m_filter;
    QList<EventRow> m_rows;
    qint64 m_now = 0;
    qint64 m_shownNow = 0; // the time the view last drew the ages and states at
    int m_sortColumn = EventIdColumn;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    bool m_atStart = true;
    bool m_atEnd = true;
    bool m_applying = false; // views may ask for more from inside the row signals
    quint64 m_pendingId = 0;
    QElapsedTimer m_loadingClock; // since the newest read was sent
    EventTableCadence *m_cadence = nullptr; // a child
    Kind m_pendingKind = Kind::Reload;
    bool m_refreshFromStart = true;
    qint64 m_count = -1;
    QString m_lastError;
    bool m_timedOut = false;
    int m_timeoutMs = 0;
};
