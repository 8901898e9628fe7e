#include "eventlistmodel.h"

#include "eventqueryclient.h"
#include "eventtablecadence.h"
#include "healthsnapshot.h"
#include "plaintext.h"
#include "saturating.h"
#include "timeformat.h"

#include <QLocale>
#include <QSettings>
#include <algorithm>

namespace {

const char *const titles[EventListModel::ColumnCount] = {"Event ID", "Type", "Aggregate", "State",
    "Failures", "Age", "Next attempt", "Error", "Last error"};

} // namespace

EventListModel::EventListModel(QObject *parent)
    : QAbstractTableModel(parent)
    , m_cadence(new EventTableCadence(this))
{ }

// The client's threads end (and its connections close) before the rows go.
EventListModel::~EventListModel() = default;

int EventListModel::statementTimeoutMs()
{
    const int ms
        = QSettings()
              .value(QStringLiteral("window/statementTimeoutMs"), DefaultStatementTimeoutMs)
              .toInt();
    return ms > 0 ? ms : DefaultStatementTimeoutMs;
}

OpenOptions EventListModel::defaultOpenOptions()
{
    OpenOptions options;
    options.readOnly = true;
    options.validateSchema = false;
    options.statementTimeoutMs = statementTimeoutMs();
    return options;
}

void EventListModel::setSource(const DatabaseUrl &url, const OpenOptions &options)
{
    m_client.reset(); // its answers are for the old source
    m_pendingId = 0;
    m_engine = url.engine();
    m_timeoutMs = options.statementTimeoutMs;
    if (m_profile) // its derived table is written per engine
        m_source = m_profile->source(m_engine);
    m_client = std::make_unique<EventQueryClient>(url, options);
    connect(m_client.get(), &EventQueryClient::answered, this, &EventListModel::accept);
    reload();
}

const EventQueryState *EventListModel::queryState() const
{
    return m_client ? &m_client->state() : nullptr;
}

void EventListModel::setProfile(const OutboxProfile &profile)
{
    using C = OutboxProfile::Column;
    m_profile = profile;
    m_source = profile.source(m_engine);
    m_unavailable.clear();
    const QList<std::pair<int, QList<C>>> needs
        = {{TypeColumn, {C::EventType}}, {AggregateColumn, {C::AggregateType, C::AggregateId}},
            {FailuresColumn, {C::Failures}}, {AgeColumn, {C::CreatedAt}},
            {ErrorCategoryColumn, {C::LastErrorCategory}}, {LastErrorColumn, {C::LastError}}};
    for (const auto &[column, logical] : needs) {
        if (std::none_of(logical.cbegin(), logical.cend(),
                [&profile](C c) { return profile.isAvailable(c); }))
            m_unavailable.insert(column);
    }
    if (!isColumnAvailable(m_sortColumn))
        m_sortColumn = EventIdColumn;
    reload();
}

void EventListModel::setNow(qint64 now)
{
    m_now = now;
    emitChangedCells(m_rows, int(m_rows.size()));
}

void EventListModel::setFilter(const EventFilter &filter)
{
    const bool inC = m_filter.idsInCCollation;
    m_filter = filter;
    m_filter.idsInCCollation = inC; // the worker knows; kept for replay and export
    reload();
}

bool EventListModel::isSortable(int column)
{
    // Not orderable in SQL by an index: State, Aggregate, Last error.
    return column == EventIdColumn || column == TypeColumn || column == FailuresColumn
        || column == AgeColumn || column == NextAttemptColumn || column == ErrorCategoryColumn;
}

void EventListModel::sort(int column, Qt::SortOrder order)
{
    if (!isSortable(column) || !isColumnAvailable(column))
        column = EventIdColumn; // fall back to the identity
    m_sortColumn = column;
    m_sortOrder = order;
    reload();
}

QString EventListModel::sortExpression() const
{
    switch (m_sortColumn) {
    case TypeColumn:
        return QStringLiteral("event_type");
    case FailuresColumn:
        return QStringLiteral("failures");
    case AgeColumn:
        return QStringLiteral("created_at");
    case NextAttemptColumn:
        return QStringLiteral("next_attempt_at");
    case ErrorCategoryColumn:
        return QStringLiteral("COALESCE(last_error_category, '')");
    default:
        return QStringLiteral("event_id");
    }
}

EventPageRequest EventListModel::request(
    Kind kind, int limit, const EventRow *anchor, Anchor side) const
{
    EventPageRequest r;
    r.kind = kind;
    r.source = m_source;
    r.profile = m_profile;
    r.filter = m_filter;
    r.now = m_now;
    r.sortExpression = sortExpression();
    // Age ascending means newest first, so the Age column sorts created_at the other way round.
    r.ascending = (m_sortOrder == Qt::AscendingOrder) != (m_sortColumn == AgeColumn);
    r.anchor = anchor ? side : Anchor::None;
    if (anchor) {
        r.anchorKey = anchor->sortKey;
        r.anchorId = anchor->eventId;
    }
    r.limit = limit;
    r.count = kind == Kind::Reload || kind == Kind::Refresh;
    return r;
}

void EventListModel::sendRequest(const EventPageRequest &request)
{
    const bool wasLoading = isLoading();
    m_pendingKind = request.kind;
    m_pendingId = m_client->submit(request);
    m_loadingClock.start();
    if (!wasLoading)
        emit loadingChanged(true);
}

void EventListModel::reload()
{
    if (!m_client) { // no source yet: nothing to show
        beginResetModel();
        m_rows.clear();
        m_atStart = m_atEnd = true;
        endResetModel();
        return;
    }
    sendRequest(request(Kind::Reload, PageSize, nullptr, Anchor::None));
}

qint64 EventListModel::loadingElapsedMs() const
{
    return isLoading() ? m_loadingClock.elapsed() : -1;
}

bool EventListModel::refresh()
{
    if (!m_client || isLoading())
        return false; // the answer that comes is as fresh
    const int wanted = std::max<int>(PageSize, int(m_rows.size()));
    m_refreshFromStart = m_atStart || m_rows.isEmpty();
    const EventRow first = m_refreshFromStart ? EventRow() : m_rows.constFirst();
    sendRequest(
        request(Kind::Refresh, wanted, m_refreshFromStart ? nullptr : &first, Anchor::AtOrAfter));
    return true;
}

bool EventListModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && !m_atEnd;
}

void EventListModel::fetchMore(const QModelIndex &parent)
{
    // A page read supersedes a refresh, not a reload or another page.
    if (parent.isValid() || m_atEnd || m_rows.isEmpty() || m_applying || !m_client
        || (isLoading() && m_pendingKind != Kind::Refresh))
        return;
    const EventRow last = m_rows.constLast();
    sendRequest(request(Kind::Next, PageSize, &last, Anchor::After));
}

void EventListModel::fetchPrevious()
{
    if (m_atStart || m_rows.isEmpty() || m_applying || !m_client
        || (isLoading() && m_pendingKind != Kind::Refresh))
        return;
    const EventRow first = m_rows.constFirst();
    sendRequest(request(Kind::Previous, PageSize, &first, Anchor::Before));
}

void EventListModel::accept(const EventPageAnswer &answer)
{
    if (answer.id != m_pendingId)
        return; // superseded
    m_pendingId = 0;
    m_filter.idsInCCollation = answer.idsInCCollation;
    if (answer.kind == Kind::Refresh || answer.kind == Kind::Reload)
        emit refreshCost(answer.queryMs);
    if (answer.outcome != EventPageAnswer::Outcome::Ok) {
        reportFailure(answer);
        emit loadingChanged(false);
        return;
    }
    m_lastError.clear();
    m_timedOut = false;
    m_applying = true;
    switch (answer.kind) {
    case Kind::Reload:
        applyReload(answer.rows);
        break;
    case Kind::Refresh:
        applyRefresh(answer.rows);
        break;
    case Kind::Next:
        applyNext(answer.rows);
        break;
    case Kind::Previous:
        applyPrevious(answer.rows);
        break;
    }
    m_applying = false;
    if (answer.count >= 0)
        setCount(answer.count);
    if (!isLoading()) { // a refresh that found its window gone reloads
        emit loadingChanged(false);
        emit loaded();
    }
}

void EventListModel::reportFailure(const EventPageAnswer &answer)
{
    m_timedOut = answer.outcome == EventPageAnswer::Outcome::TimedOut;
    m_lastError = m_timedOut
        ? tr("Cancelled at the statement timeout (%1 s). Narrow it by state, or search an "
             "event ID (\"ID starts with\").")
              .arg(QLocale(QLocale::English).toString(m_timeoutMs / 1000.0, 'g', 3))
        : tr("The event list could not be read: %1").arg(answer.error);
    emit errorOccurred(m_lastError);
}

void EventListModel::applyReload(const QList<EventRow> &rows)
{
    beginResetModel();
    m_rows = rows;
    m_shownNow = m_now;
    m_atStart = true;
    m_atEnd = rows.size() < PageSize;
    endResetModel();
}

void EventListModel::applyRefresh(const QList<EventRow> &rows)
{
    if (rows.isEmpty() && !m_refreshFromStart) { // everything from the window on is gone
        m_applying = false;
        reload();
        return;
    }
    const int wanted = std::max<int>(PageSize, int(m_rows.size()));
    const int before = int(m_rows.size());
    const int after = int(rows.size());
    const QList<EventRow> old = m_rows;
    if (after < before) {
        beginRemoveRows({}, after, before - 1);
        m_rows = rows;
        endRemoveRows();
    } else if (after > before) {
        beginInsertRows({}, before, after - 1);
        m_rows = rows;
        endInsertRows();
    } else {
        m_rows = rows;
    }
    m_atEnd = after < wanted;
    emitChangedCells(old, std::min(before, after));
}

// Only the cells whose text differs from what the view drew (rows `before`, at m_shownNow): on a
// quiet outbox a refresh repaints nothing, or the ages that moved on to their next unit.
void EventListModel::emitChangedCells(const QList<EventRow> &before, int rows)
{
    static constexpr int timeColumns[] = {StateColumn, AgeColumn, NextAttemptColumn};
    int firstRow = rows, lastRow = -1, firstColumn = ColumnCount, lastColumn = -1;
    for (int row = 0; row < rows; ++row) {
        const EventRow &now = m_rows.at(row);
        int first = 0, last = ColumnCount - 1;
        if (before.at(row) == now) {
            first = ColumnCount;
            last = -1;
            for (const int column : timeColumns) {
                if (displayText(now, column, m_shownNow) != displayText(now, column, m_now)) {
                    first = std::min(first, column);
                    last = std::max(last, column);
                }
            }
            if (last < 0)
                continue;
        }
        firstRow = std::min(firstRow, row);
        lastRow = row;
        firstColumn = std::min(firstColumn, first);
        lastColumn = std::max(lastColumn, last);
    }
    m_shownNow = m_now;
    if (lastRow >= 0)
        emit dataChanged(index(firstRow, firstColumn), index(lastRow, lastColumn));
}

void EventListModel::applyNext(const QList<EventRow> &rows)
{
    m_atEnd = rows.size() < PageSize;
    if (rows.isEmpty())
        return;
    beginInsertRows({}, int(m_rows.size()), int(m_rows.size() + rows.size() - 1));
    m_rows.append(rows);
    endInsertRows();
    dropTop();
}

void EventListModel::applyPrevious(const QList<EventRow> &rows)
{
    m_atStart = rows.size() < PageSize;
    if (rows.isEmpty())
        return;
    beginInsertRows({}, 0, int(rows.size() - 1));
    m_rows = rows + m_rows;
    endInsertRows();
    emit windowShifted(int(rows.size()));
    dropBottom();
}

void EventListModel::setCount(qint64 count)
{
    if (count == m_count)
        return;
    m_count = count;
    emit matchCountChanged();
}

QString EventListModel::matchCountText() const
{
    const QLocale english(QLocale::English);
    if (m_count < 0)
        return {};
    if (m_count == 0)
        return tr("No events match");
    if (m_count > EventPageAnswer::CountLimit)
        return tr("more than %1 events match").arg(english.toString(EventPageAnswer::CountLimit));
    if (m_count == 1)
        return tr("1 event matches");
    return tr("%1 events match").arg(english.toString(m_count));
}

// Rows beyond the window's bound go at the top, after a page came in below.
void EventListModel::dropTop()
{
    const int excess = int(m_rows.size()) - MaxRows;
    if (excess <= 0)
        return;
    beginRemoveRows({}, 0, excess - 1);
    m_rows.remove(0, excess);
    endRemoveRows();
    m_atStart = false;
    emit windowShifted(-excess);
}

void EventListModel::dropBottom()
{
    const int excess = int(m_rows.size()) - MaxRows;
    if (excess <= 0)
        return;
    beginRemoveRows({}, MaxRows, int(m_rows.size()) - 1);
    m_rows.resize(MaxRows);
    endRemoveRows();
    m_atEnd = false;
}

QString EventListModel::eventIdAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? m_rows.at(row).eventId : QString();
}

int EventListModel::rowOfEvent(const QString &eventId) const
{
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows.at(i).eventId == eventId)
            return i;
    }
    return -1;
}

int EventListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int EventListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString EventListModel::derivedState(const EventRow &row, qint64 now) const
{
    if (row.status != QLatin1String("PENDING"))
        return row.status;
    if (!row.claimed)
        return row.nextAttemptAt <= now ? QStringLiteral("DUE") : QStringLiteral("SCHEDULED");
    return row.leaseUntil > now ? QStringLiteral("IN FLIGHT") : QStringLiteral("LEASE EXPIRED");
}

QVariant EventListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const EventRow &row = m_rows.at(index.row());
    switch (role) {
    case EventIdRole:
        return row.eventId;
    case StateRole:
        return derivedState(row, m_now);
    case StatusRole:
        return row.status;
    case NoteRole:
        return row.noteMarker;
    case Qt::ToolTipRole:
        if (index.column() != StateColumn || row.note.isEmpty())
            return {};
        // An operator's words: shown as written, never as markup (a tooltip guesses the format).
        return PlainText::toolTip(
            QStringLiteral("%1 (%2): %3").arg(row.noteMarker.toUpper(), row.noteBy, row.note));
    case Qt::TextAlignmentRole:
        if (index.column() == FailuresColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::DisplayRole: {
        const QVariant text = displayText(row, index.column(), m_now);
        return text.typeId() == QMetaType::QString ? QVariant(PlainText::escaped(text.toString()))
                                                   : text;
    }
    case RawTextRole:
        return displayText(row, index.column(), m_now);
    default:
        return {};
    }
}

QVariant EventListModel::displayText(const EventRow &row, int column, qint64 now) const
{
    if (!isColumnAvailable(column))
        return QStringLiteral("n/a");
    switch (column) {
    case EventIdColumn:
        return row.eventId;
    case TypeColumn:
        return row.eventType;
    case AggregateColumn:
        return row.aggregate;
    case StateColumn:
        return derivedState(row, now);
    case FailuresColumn:
        return row.failures;
    case AgeColumn:
        // No age for a time that is none (HealthSnapshot reports such rows too).
        if (row.createdAt < 0)
            return QStringLiteral("before 1970");
        if (row.createdAt > Saturating::add(now, HealthSnapshot::FutureToleranceMs))
            return QStringLiteral("in the future");
        // Within the tolerance a row created a little after now is just created, not negative.
        return TimeFormat::isLogical(row.createdAt)
            ? TimeFormat::units(std::max<qint64>(0, now - row.createdAt))
            : TimeFormat::age(std::max<qint64>(0, now - row.createdAt));
    case NextAttemptColumn:
        return row.status == QLatin1String("PENDING") && !row.claimed
            ? TimeFormat::relative(row.nextAttemptAt, now)
            : QString();
    case ErrorCategoryColumn:
        return row.errorCategory;
    case LastErrorColumn:
        return row.lastError;
    }
    return {};
}

QVariant EventListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    return section >= 0 && section < ColumnCount ? QVariant(columnTitle(section)) : QVariant();
}

QString EventListModel::columnTitle(int column)
{
    return column >= 0 && column < ColumnCount ? tr(titles[column]) : QString();
}

std::optional<std::pair<int, Qt::SortOrder>> EventListModel::sortFromText(
    const QString &text, QString *error)
{
    const QString name = text.section(QLatin1Char(':'), 0, 0).trimmed();
    const QString order = text.section(QLatin1Char(':'), 1).trimmed().toLower();
    QStringList sortable;
    std::optional<int> column;
    for (int c = 0; c < ColumnCount; ++c) {
        if (!isSortable(c))
            continue;
        const QString title = QString::fromLatin1(titles[c]);
        sortable << title.toLower().replace(QLatin1Char(' '), QLatin1Char('-'));
        QString wanted = name;
        wanted.replace(QLatin1Char('-'), QLatin1Char(' '))
            .replace(QLatin1Char('_'), QLatin1Char(' '));
        if (wanted.compare(title, Qt::CaseInsensitive) == 0)
            column = c;
    }
    if (!column) {
        *error = QStringLiteral("unknown sort column \"%1\" (one of: %2)")
                     .arg(name, sortable.join(QStringLiteral(", ")));
        return std::nullopt;
    }
    if (!order.isEmpty() && order != QLatin1String("asc") && order != QLatin1String("desc")) {
        *error = QStringLiteral("unknown sort order \"%1\" (asc or desc)").arg(order);
        return std::nullopt;
    }
    return std::pair {
        *column, order == QLatin1String("desc") ? Qt::DescendingOrder : Qt::AscendingOrder};
}
