#include "healthtiles.h"

#include "healthgrade.h"
#include "numbertext.h"
#include "operatornotes.h"
#include "themecolours.h"
#include "thresholdwords.h"
#include "tileframe.h"
#include "timeformat.h"

#include <QAccessible>
#include <QAccessibleWidget>
#include <QCoreApplication>
#include <QEvent>
#include <QFrame>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLocale>
#include <QMouseEvent>
#include <climits>
#include <limits>

namespace {

ThemeColours::TileLevel themeLevel(HealthTiles::Level level)
{
    switch (level) {
    case HealthTiles::Level::Amber:
        return ThemeColours::TileLevel::Amber;
    case HealthTiles::Level::Red:
        return ThemeColours::TileLevel::Red;
    case HealthTiles::Level::Normal:
        break;
    }
    return ThemeColours::TileLevel::Normal;
}

// The hint each tile shows under its value while its figures are current.
QString normalHint(HealthTiles::Tile tile)
{
    using T = HealthTiles::Tile;
    switch (tile) {
    case T::Due:
        return HealthTiles::tr("claimable now");
    case T::Scheduled:
        return HealthTiles::tr("waiting for due time");
    case T::InFlight:
        return HealthTiles::tr("lease live");
    case T::LeaseExpired:
        return HealthTiles::tr("will be reclaimed");
    case T::Delivered:
        return HealthTiles::tr("all time");
    case T::Dead:
        return HealthTiles::tr("need an operator");
    case T::Resolved:
        return HealthTiles::tr("closed by an operator");
    case T::OldestPending:
        return HealthTiles::tr("age of oldest PENDING");
    }
    return {};
}

// The same rule as the fleet view and the desktop alerts (HealthGrade).
HealthTiles::Level levelOf(qint64 value, const TileLimits &limits)
{
    switch (HealthGrade::levelOf(value, limits)) {
    case HealthGrade::Level::Red:
        return HealthTiles::Level::Red;
    case HealthGrade::Level::Amber:
        return HealthTiles::Level::Amber;
    case HealthGrade::Level::Normal:
        break;
    }
    return HealthTiles::Level::Normal;
}

// `logical`: the snapshot was taken on a scenario's clock, whose units an age limit is compared
// in. The words are outboxctl check's (ThresholdWords): "Amber from 1, red from 10".
ThresholdWords::Unit unitOf(bool isAge, bool logical = false)
{
    using U = ThresholdWords::Unit;
    return !isAge ? U::Count : logical ? U::LogicalAge : U::Age;
}

QString limitsTip(const TileLimits &limits, bool isAge, bool logical = false)
{
    QString text = ThresholdWords::limits(limits, unitOf(isAge, logical));
    text[0] = text.at(0).toUpper();
    return text;
}

} // namespace

HealthTiles::HealthTiles(QWidget *parent)
    : QWidget(parent)
{
    setAccessibleName(tr("Health tiles"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    addTile(Tile::Due, tr("Due"));
    addTile(Tile::Scheduled, tr("Scheduled"));
    addTile(Tile::InFlight, tr("In flight"));
    addTile(Tile::LeaseExpired, tr("Lease expired"));
    addTile(Tile::Delivered, tr("Delivered"));
    addTile(Tile::Dead, tr("DEAD"));
    addTile(Tile::Resolved, tr("Resolved"));
    addTile(Tile::OldestPending, tr("Oldest pending"));
    updateValues();
    updateLevels();
}

namespace {

// A tile is a button to a screen reader: the Button role and a press action, which does what
// Enter does (filters the table to the tile's events).
class TileAccessible : public QAccessibleWidget
{
public:
    explicit TileAccessible(QWidget *tile)
        : QAccessibleWidget(tile, QAccessible::Button)
    { }
    QStringList actionNames() const override { return {pressAction(), setFocusAction()}; }
    void doAction(const QString &name) override
    {
        if (name != pressAction())
            return QAccessibleWidget::doAction(name);
        QKeyEvent press(QEvent::KeyPress, Qt::Key_Return, Qt::NoModifier);
        QCoreApplication::sendEvent(widget(), &press);
    }
};

QAccessibleInterface *tileAccessible(const QString &className, QObject *object)
{
    if (className == u"QFrame" && object && object->objectName() == u"healthTile"
        && object->isWidgetType())
        return new TileAccessible(static_cast<QWidget *>(object));
    return nullptr;
}

} // namespace

void HealthTiles::addTile(Tile tile, const QString &title)
{
    static const bool installed = [] {
        QAccessible::installFactory(tileAccessible);
        return true;
    }();
    Q_UNUSED(installed)
    Q_ASSERT(int(tile) == m_tiles.size());
    TileWidgets widgets;
    widgets.frame = new QFrame;
    widgets.frame->setObjectName(QStringLiteral("healthTile"));
    widgets.frame->setCursor(Qt::PointingHandCursor);
    // In the Tab chain, before the pages as it stands above them; Enter or Space does what a
    // click does.
    widgets.frame->setFocusPolicy(Qt::TabFocus);
    widgets.frame->installEventFilter(this); // a click filters the table (tileClicked)
    widgets.frame->setAccessibleName(tr("%1 tile").arg(title));
    widgets.name = title;
    widgets.title = new QLabel(title);
    widgets.value = new QLabel;
    widgets.hint = new QLabel(normalHint(tile));
    stackTileLines(widgets.frame, widgets.title, widgets.value, widgets.hint);
    layout()->addWidget(widgets.frame);
    m_tiles.append(widgets);
    applyLevel(m_tiles.last(), Level::Normal);
}

QWidget *HealthTiles::tileWidget(Tile tile) const
{
    return widgets(tile).frame;
}

bool HealthTiles::eventFilter(QObject *watched, QEvent *event)
{
    const auto activates = [event] {
        if (event->type() == QEvent::MouseButtonRelease)
            return static_cast<QMouseEvent *>(event)->button() == Qt::LeftButton;
        if (event->type() != QEvent::KeyPress)
            return false;
        const int key = static_cast<QKeyEvent *>(event)->key();
        return key == Qt::Key_Return || key == Qt::Key_Enter || key == Qt::Key_Space;
    };
    if (activates()) {
        for (int i = 0; i < m_tiles.size(); ++i) {
            if (m_tiles.at(i).frame == watched) {
                emit tileClicked(Tile(i));
                return true;
            }
        }
    }
    return QWidget::eventFilter(watched, event);
}

void HealthTiles::setSnapshot(const HealthSnapshot &snapshot)
{
    m_snapshot = snapshot;
    m_hasSnapshot = true;
    updateValues();
    updateLevels();
}

void HealthTiles::setStale(bool stale, const QDateTime &since)
{
    m_stale = stale;
    m_staleSince = since;
    updateHints();
    updateLevels();
}

void HealthTiles::setThresholds(const TileThresholds &thresholds)
{
    m_thresholds = thresholds;
    updateLevels();
}

QString HealthTiles::valueText(Tile tile) const
{
    return widgets(tile).value->text();
}

void HealthTiles::setAcknowledged(qint64 onHold, qint64 investigating)
{
    if (onHold == m_onHold && investigating == m_investigating)
        return;
    m_onHold = onHold;
    m_investigating = investigating;
    updateHints();
    updateLevels();
    updateAccessibility();
}

QString HealthTiles::hintText(Tile tile) const
{
    return widgets(tile).hint->text();
}

QString HealthTiles::toolTipText(Tile tile) const
{
    return widgets(tile).frame->toolTip();
}

HealthTiles::Level HealthTiles::level(Tile tile) const
{
    return widgets(tile).level;
}

void HealthTiles::updateValues()
{
    for (int i = 0; i < m_tiles.size(); ++i)
        m_tiles[i].value->setText(formatValue(Tile(i)));
    updateHints();
}

void HealthTiles::updateHints()
{
    if (m_stale) {
        const QString since = m_staleSince.isValid()
            ? tr("stale since %1").arg(m_staleSince.toString(QStringLiteral("HH:mm:ss")))
            : tr("no figures yet"); // never current: nothing here was ever true
        for (TileWidgets &tile : m_tiles)
            tile.hint->setText(since);
        return;
    }
    for (int i = 0; i < m_tiles.size(); ++i)
        m_tiles[i].hint->setText(normalHint(Tile(i)));
    if (const QString dead = deadText(); dead.contains(u'('))
        widgets(Tile::Dead).hint->setText(dead.mid(dead.indexOf(u'(')));
    // Rows whose created_at is no time (before 1970, far in the future) have no age: said here
    // rather than hidden in the oldest age or shown as a wrapped one.
    const ImplausibleTimes &implausible = m_snapshot.implausible;
    if (implausible.any())
        widgets(Tile::OldestPending)
            .hint->setText(tr("%n without a plausible created_at", nullptr,
                int(std::min<qint64>(implausible.createdBefore1970 + implausible.createdInFuture,
                    std::numeric_limits<int>::max()))));
}

void HealthTiles::updateLevels()
{
    for (int i = 0; i < m_tiles.size(); ++i)
        applyLevel(m_tiles[i], levelFor(Tile(i)));
    widgets(Tile::Due).frame->setToolTip(limitsTip(m_thresholds.due, false));
    widgets(Tile::LeaseExpired).frame->setToolTip(limitsTip(m_thresholds.leaseExpired, false));
    const QString dead = deadText();
    widgets(Tile::Dead)
        .frame->setToolTip(dead.contains(u'(') ? dead + u'\n' + limitsTip(m_thresholds.dead, false)
                                               : limitsTip(m_thresholds.dead, false));
    widgets(Tile::Resolved)
        .frame->setToolTip(!m_hasSnapshot || resolvedKnown()
                ? tr("DEAD events an operator closed without delivery (Resolve…)")
                : m_snapshot.schemaVersion > 0
                ? tr("This schema has no RESOLVED state yet: run outboxctl migrate")
                : tr("Another library's table: it has no RESOLVED state"));
    const QString implausible = m_snapshot.implausible.sentence();
    widgets(Tile::OldestPending)
        .frame->setToolTip(limitsTip(m_thresholds.oldestPendingMs, true,
                               m_hasSnapshot && TimeFormat::isLogical(m_snapshot.now))
            + (implausible.isEmpty() ? QString() : QLatin1Char('\n') + implausible));
    updateAccessibility();
}

QString HealthTiles::summaryText(Tile tile) const
{
    return widgets(tile).frame->accessibleDescription();
}

// Each tile's figure, its limits and its hint in one sentence: the tile's colour in words.
void HealthTiles::updateAccessibility()
{
    for (int i = 0; i < m_tiles.size(); ++i) {
        const Tile tile = Tile(i);
        QString text = figureText(tile);
        if (const QString limit = limitText(tile); !limit.isEmpty())
            text += QStringLiteral(", ") + limit;
        if (const QString hint = hintText(tile); !hint.isEmpty())
            text += QStringLiteral("; ") + hint;
        m_tiles[i].frame->setAccessibleDescription(text);
    }
}

QString HealthTiles::figureText(Tile tile) const
{
    const QString value = valueText(tile);
    if (!m_hasSnapshot)
        return tr("%1: no figures yet").arg(widgets(tile).name);
    if (value == QLatin1String("n/a"))
        return tr("%1: not available for this schema").arg(widgets(tile).name);
    const HealthCounts &counts = m_snapshot.counts;
    const auto n = [](qint64 count) { return int(std::min<qint64>(count, INT_MAX)); };
    switch (tile) {
    case Tile::Due:
        return tr("%n event(s) due", nullptr, n(counts.due));
    case Tile::Scheduled:
        return tr("%n event(s) scheduled", nullptr, n(counts.scheduled));
    case Tile::InFlight:
        return tr("%n event(s) in flight", nullptr, n(counts.inFlight));
    case Tile::LeaseExpired:
        return tr("%n expired lease(s)", nullptr, n(counts.leaseExpired));
    case Tile::Delivered:
        return m_snapshot.isEstimated(QStringLiteral("delivered"))
            ? tr("about %n event(s) delivered", nullptr, n(counts.delivered))
            : tr("%n event(s) delivered", nullptr, n(counts.delivered));
    case Tile::Dead:
        return tr("%n DEAD event(s)", nullptr, n(counts.dead));
    case Tile::Resolved:
        return tr("%n event(s) resolved", nullptr, n(counts.resolved));
    case Tile::OldestPending:
        return m_snapshot.oldestPendingAgeMs ? tr("the oldest pending event is %1 old").arg(value)
                                             : tr("no pending event");
    }
    return value;
}

// The limit the figure is measured against, for the tiles that change colour.
QString HealthTiles::limitText(Tile tile) const
{
    const TileLimits *limits = tile == Tile::Due ? &m_thresholds.due
        : tile == Tile::LeaseExpired             ? &m_thresholds.leaseExpired
        : tile == Tile::Dead                     ? &m_thresholds.dead
        : tile == Tile::OldestPending            ? &m_thresholds.oldestPendingMs
                                                 : nullptr;
    if (!limits || !m_hasSnapshot || valueText(tile) == QLatin1String("n/a"))
        return {};
    const QString words = ThresholdWords::limits(
        *limits, unitOf(tile == Tile::OldestPending, TimeFormat::isLogical(m_snapshot.now)));
    switch (level(tile)) {
    case Level::Red:
        return tr("red (%1)").arg(words);
    case Level::Amber:
        return tr("amber (%1)").arg(words);
    case Level::Normal:
        break;
    }
    return tr("normal (%1)").arg(words);
}

void HealthTiles::setEnvironment(const QString &name, const QColor &colour)
{
    if (!m_badge) {
        m_badge = new QLabel;
        m_badge->setObjectName(QStringLiteral("environmentBadge"));
        m_badge->setAlignment(Qt::AlignCenter);
        m_badge->setTextFormat(Qt::PlainText); // the operator's words, never markup
        static_cast<QHBoxLayout *>(layout())->insertWidget(0, m_badge);
    }
    m_badge->setVisible(!name.isEmpty());
    m_badge->setText(name);
    m_badge->setToolTip(tr("The connection's environment, set in Connect…"));
    const QColor text = ThemeColours::textOn(colour);
    m_badge->setStyleSheet(QStringLiteral("QLabel#environmentBadge { background: %1; color: %2;"
                                          " border-radius: 6px; padding: 4px 10px;"
                                          " font-weight: 700; font-size: 12pt; }")
                               .arg(colour.name(), text.name()));
}

void HealthTiles::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (m_restyling
        || (event->type() != QEvent::PaletteChange
            && event->type() != QEvent::ApplicationPaletteChange))
        return;
    m_restyling = true;
    for (TileWidgets &tile : m_tiles)
        tile.frame->setStyleSheet(QString()); // applyLevel restyles an unstyled tile
    updateLevels();
    m_restyling = false;
}

void HealthTiles::applyLevel(TileWidgets &widgets, Level level)
{
    // Restyling re-polishes the tile, so only a change of level does it.
    if (widgets.level == level && widgets.stale == m_stale
        && !widgets.frame->styleSheet().isEmpty())
        return;
    widgets.level = level;
    widgets.stale = m_stale;
    // Stale figures may no longer be true: no level colour, nothing that looks live.
    const ThemeColours::Tile colours
        = ThemeColours::tile(m_stale ? ThemeColours::TileLevel::Stale : themeLevel(level));
    widgets.colours = colours;
    // Focused (Tab): a border twice as thick in the palette's highlight; the padding keeps
    // the figures in place.
    widgets.frame->setStyleSheet(
        styleSheet(colours, palette().color(QPalette::Highlight), widgets.frame->objectName()));
}

QString HealthTiles::styleSheet(
    const ThemeColours::Tile &colours, const QColor &focus, const QString &objectName)
{
    return QStringLiteral("QFrame#%6 { background: %1; border: 1px solid %2;"
                          " border-radius: 6px; padding: 1px; }"
                          " QFrame#%6:focus { border: 2px solid %5; padding: 0px; }"
                          " QLabel { color: %3; background: transparent; border: none; }"
                          " QLabel#tileTitle { font-weight: 600; }"
                          " QLabel#tileValue { font-size: 20pt; font-weight: 600; }"
                          " QLabel#tileHint { color: %4; font-size: 8pt; }")
        .arg(colours.background.name(), colours.border.name(), colours.text.name(),
            colours.hint.name(), focus.name(), objectName);
}

namespace {

// The snapshot key (HealthSnapshot::notAvailable) a tile shows.
QString keyOf(HealthTiles::Tile tile)
{
    using T = HealthTiles::Tile;
    switch (tile) {
    case T::Due:
        return QStringLiteral("due");
    case T::Scheduled:
        return QStringLiteral("scheduled");
    case T::InFlight:
        return QStringLiteral("in_flight");
    case T::LeaseExpired:
        return QStringLiteral("lease_expired");
    case T::Delivered:
        return QStringLiteral("delivered");
    case T::Dead:
        return QStringLiteral("dead");
    case T::Resolved:
        return QStringLiteral("resolved");
    case T::OldestPending:
        return QStringLiteral("oldest_pending_age_ms");
    }
    return {};
}

} // namespace

// RESOLVED exists on the native schema from version 2 (a profile's snapshot has version 0).
bool HealthTiles::resolvedKnown() const
{
    return m_snapshot.hasResolved();
}

QString HealthTiles::formatValue(Tile tile) const
{
    if (!m_hasSnapshot)
        return QStringLiteral("—");
    if (!m_snapshot.isAvailable(keyOf(tile)) || (tile == Tile::Resolved && !resolvedKnown()))
        return QStringLiteral("n/a"); // the schema cannot tell: never shown as 0
    const HealthCounts &counts = m_snapshot.counts;
    const auto count = [](qint64 value) { return NumberText::count(value); };
    switch (tile) {
    case Tile::Due:
        return count(counts.due);
    case Tile::Scheduled:
        return count(counts.scheduled);
    case Tile::InFlight:
        return count(counts.inFlight);
    case Tile::LeaseExpired:
        return count(counts.leaseExpired);
    case Tile::Delivered: {
        const QString number = count(counts.delivered);
        return m_snapshot.isEstimated(QStringLiteral("delivered")) ? QStringLiteral("≈ ") + number
                                                                   : number;
    }
    case Tile::Dead:
        return count(counts.dead);
    case Tile::Resolved:
        return count(counts.resolved);
    case Tile::OldestPending:
        // In the unit of the clock the snapshot was taken on: "9 units" in a scenario, as the
        // event table says; humane on the wall clock ("12 min 30 s"), as outboxctl check says.
        return m_snapshot.oldestPendingAgeMs ? ThresholdWords::value(*m_snapshot.oldestPendingAgeMs,
                   unitOf(true, TimeFormat::isLogical(m_snapshot.now)))
                                             : QStringLiteral("—");
    }
    return {};
}

HealthTiles::Level HealthTiles::levelFor(Tile tile) const
{
    if (!m_hasSnapshot || !m_snapshot.isAvailable(keyOf(tile)))
        return Level::Normal;
    const HealthCounts &counts = m_snapshot.counts;
    switch (tile) {
    case Tile::Due:
        return levelOf(counts.due, m_thresholds.due);
    case Tile::LeaseExpired:
        return levelOf(counts.leaseExpired, m_thresholds.leaseExpired);
    case Tile::Dead:
        return levelOf(counts.dead, m_thresholds.dead);
    case Tile::OldestPending: {
        const Level level = m_snapshot.oldestPendingAgeMs
            ? levelOf(*m_snapshot.oldestPendingAgeMs, m_thresholds.oldestPendingMs)
            : Level::Normal;
        // A row with no plausible created_at could be older than any shown: never quietly normal.
        return m_snapshot.implausible.any() && level == Level::Normal ? Level::Amber : level;
    }
    default:
        return Level::Normal;
    }
}

QString HealthTiles::deadText() const
{
    if (!m_hasSnapshot || !m_snapshot.isAvailable(keyOf(Tile::Dead)))
        return {};
    const qint64 dead = m_snapshot.counts.dead;
    // A count from an older diagnosis may exceed the snapshot's: never more than are DEAD.
    return OperatorNotes::deadText(dead, std::min(dead, std::max<qint64>(0, m_onHold)),
        std::min(dead, std::max<qint64>(0, m_investigating)));
}
