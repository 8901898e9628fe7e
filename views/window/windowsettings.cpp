#include "windowsettings.h"

#include "overviewpage.h"

#include "databaseurl.h"
#include "filterbar.h"
#include "healthmonitor.h"
#include "mainwindow.h"

#include <QHeaderView>
#include <QSettings>
#include <QSplitter>
#include <QTableView>
#include <QUrl>

namespace {

// Bumped when a saved layout would no longer fit the window's widgets.
constexpr int StateVersion = 1;

const QString Geometry = QStringLiteral("window/geometry");
const QString State = QStringLiteral("window/state");
// The Events page's table and detail. Not "window/splitter", which held the table and the old
// tab pane (it is dropped on the next save: the detail's share of it was the tabs' share).
const QString Splitter = QStringLiteral("window/eventsSplitter");
const QString OldSplitter = QStringLiteral("window/splitter");
const QString HistoryRangeKey = QStringLiteral("charts/historyRange");
const QString Header = QStringLiteral("eventTable/header");
const QString Interval = QStringLiteral("refresh/intervalMs");
const QString Last = QStringLiteral("lastDatabase/");
const QString OldFilter = QStringLiteral("eventTable/filter");

} // namespace

namespace WindowSettings {

QString filterGroup(const MainWindow &window)
{
    QString database = window.options().startLiveRelay ? QStringLiteral("demo")
                                                       : window.url().toStorableString();
    if (!window.options().outboxName.isEmpty())
        database += QLatin1Char(' ') + window.options().outboxName;
    // A group name has no slashes: the URL is kept whole, percent-encoded.
    return QStringLiteral("eventTable/filters/")
        + QString::fromLatin1(QUrl::toPercentEncoding(database));
}

void saveFilter(QSettings &settings, const QString &group, const EventFilter &filter)
{
    settings.remove(OldFilter); // the one filter of every database, before 27
    settings.beginGroup(group);
    settings.setValue(QStringLiteral("state"), EventFilter::stateName(filter.state));
    settings.setValue(QStringLiteral("search"), filter.search);
    settings.setValue(QStringLiteral("searchMode"),
        filter.searchMode == EventFilter::SearchMode::Contains ? QStringLiteral("text")
                                                               : QStringLiteral("id"));
    settings.setValue(QStringLiteral("minFailures"), filter.minFailures);
    settings.setValue(
        QStringLiteral("minAgeMs"), filter.minAgeMs ? QVariant(*filter.minAgeMs) : QVariant());
    settings.setValue(
        QStringLiteral("maxAgeMs"), filter.maxAgeMs ? QVariant(*filter.maxAgeMs) : QVariant());
    settings.setValue(QStringLiteral("errorCategory"), filter.errorCategory);
    settings.endGroup();
}

std::optional<EventFilter> loadFilter(const QSettings &settings, const QString &group)
{
    const auto value = [&settings, &group](const char *key) {
        return settings.value(group + QLatin1Char('/') + QLatin1String(key));
    };
    if (!value("state").isValid())
        return std::nullopt; // never opened, or never closed
    EventFilter filter;
    filter.state
        = EventFilter::stateFromName(value("state").toString()).value_or(EventFilter::State::Any);
    filter.search = value("search").toString();
    filter.searchMode = value("searchMode").toString() == QLatin1String("text")
        ? EventFilter::SearchMode::Contains
        : EventFilter::SearchMode::IdPrefix;
    filter.minFailures = qMax(0, value("minFailures").toInt());
    bool ok = false;
    if (const qint64 ms = value("minAgeMs").toLongLong(&ok); ok && ms >= 0)
        filter.minAgeMs = ms;
    if (const qint64 ms = value("maxAgeMs").toLongLong(&ok); ok && ms >= 0)
        filter.maxAgeMs = ms;
    const QString category = value("errorCategory").toString();
    if (category == QLatin1String("TRANSIENT") || category == QLatin1String("PERMANENT"))
        filter.errorCategory = category;
    return filter;
}

void save(const MainWindow &window)
{
    QSettings settings;
    settings.setValue(Geometry, window.saveGeometry());
    settings.setValue(State, window.saveState(StateVersion));
    settings.setValue(Splitter, window.splitter()->saveState());
    settings.remove(OldSplitter);
    settings.setValue(Header, window.eventView()->horizontalHeader()->saveState());
    settings.setValue(Interval, window.monitor()->interval());
    settings.setValue(HistoryRangeKey, DeliveryHistory::rangeName(window.charts()->range()));
    saveFilter(settings, filterGroup(window), window.filterBar()->filter());
}

bool restore(MainWindow &window)
{
    const QSettings settings;
    if (settings.contains(Geometry))
        window.restoreGeometry(settings.value(Geometry).toByteArray());
    if (settings.contains(State))
        window.restoreState(settings.value(State).toByteArray(), StateVersion);
    if (settings.contains(Splitter))
        window.splitter()->restoreState(settings.value(Splitter).toByteArray());
    const int interval = settings.value(Interval).toInt();
    if (interval >= 1000 && interval <= 600000)
        window.monitor()->setInterval(interval);
    if (const auto range
        = DeliveryHistory::rangeFromName(settings.value(HistoryRangeKey).toString()))
        window.charts()->setRange(*range);
    if (const auto filter = loadFilter(settings, filterGroup(window)))
        window.filterBar()->setFilter(*filter);
    QHeaderView *header = window.eventView()->horizontalHeader();
    if (!settings.contains(Header) || !header->restoreState(settings.value(Header).toByteArray()))
        return false;
    // The model sorts only when asked: the saved sort indicator becomes the table's sort.
    window.eventView()->sortByColumn(header->sortIndicatorSection(), header->sortIndicatorOrder());
    return true;
}

void saveLastDatabase(const LastDatabase &database)
{
    QSettings settings;
    settings.setValue(Last + QLatin1String("demo"), database.demo);
    QString url;
    if (!database.demo) {
        QString error;
        const DatabaseUrl parsed = DatabaseUrl::parse(database.url, &error);
        url = parsed.isValid() ? parsed.toStorableString() : QString();
    }
    settings.setValue(Last + QLatin1String("url"), url);
    settings.setValue(
        Last + QLatin1String("profile"), database.demo ? QString() : database.profile);
    settings.setValue(Last + QLatin1String("readOnly"), !database.demo && database.readOnly);
}

std::optional<LastDatabase> lastDatabase()
{
    const QSettings settings;
    LastDatabase database;
    database.demo = settings.value(Last + QLatin1String("demo")).toBool();
    database.url = settings.value(Last + QLatin1String("url")).toString();
    database.profile = settings.value(Last + QLatin1String("profile")).toString();
    database.readOnly = settings.value(Last + QLatin1String("readOnly")).toBool();
    if (!database.demo && database.url.isEmpty())
        return std::nullopt;
    return database;
}

} // namespace WindowSettings
