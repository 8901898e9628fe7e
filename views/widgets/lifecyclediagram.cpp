#include "lifecyclediagram.h"

#include "statuscolorproxy.h"
#include "themecolours.h"

#include <QFontMetricsF>
#include <QLineF>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>
#include <QtMath>

namespace {

// The diagram is designed at this size; other sizes move the boxes with the widget's edges
// and scale boxes and text by the smaller of the two ratios.
constexpr qreal DesignWidth = 640;
constexpr qreal DesignHeight = 300;

// The diagram is drawn on the palette's base colour, in its text colour.
QColor background()
{
    return ThemeColours::current().color(QPalette::Base);
}

QColor diagramTextColour()
{
    return ThemeColours::current().color(QPalette::Text);
}

QColor arrowColour()
{
    return ThemeColours::isDark() ? QColor(0x8b, 0x94, 0x9e) : QColor(0x57, 0x60, 0x6a);
}

// The transition just taken: the palette's selection colour, as a selected row.
QColor accent()
{
    return ThemeColours::current().color(QPalette::Highlight);
}

// `amount` of `colour` over the background.
QColor tint(const QColor &colour, qreal amount)
{
    const QColor under = background();
    const auto mix
        = [amount](qreal channel, qreal base) { return channel * amount + base * (1 - amount); };
    return QColor::fromRgbF(mix(colour.redF(), under.redF()), mix(colour.greenF(), under.greenF()),
        mix(colour.blueF(), under.blueF()));
}

} // namespace

LifecycleDiagram::LifecycleDiagram(QWidget *parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setFocusPolicy(Qt::StrongFocus); // the keyboard lands here; a screen reader reads the summary
    setAccessibleName(tr("Lifecycle diagram"));
    updateSummary();
}

// Each snapshot sets both: a quiet outbox's repaints nothing.
void LifecycleDiagram::setCounts(const HealthCounts &counts)
{
    if (counts == m_counts)
        return;
    m_counts = counts;
    updateSummary();
    update();
}

void LifecycleDiagram::setNotAvailable(const QStringList &keys)
{
    if (keys == m_notAvailable)
        return;
    m_notAvailable = keys;
    updateSummary();
    update();
}

QString LifecycleDiagram::summaryText() const
{
    return accessibleDescription();
}

QString LifecycleDiagram::countText(const char *key, qint64 value) const
{
    return m_notAvailable.contains(QLatin1String(key)) ? tr("n/a") : QLocale().toString(value);
}

// The boxes' counts and the arrows' story, as the picture shows them.
void LifecycleDiagram::updateSummary()
{
    static const char *const keys[StateCount]
        = {"due", "in_flight", "scheduled", "delivered", "dead", "resolved"};
    QStringList counts;
    for (int state = 0; state < StateCount; ++state) {
        QString text
            = tr("%1 %2").arg(title(State(state)), countText(keys[state], count(State(state))));
        if (state == InFlight)
            text += tr(" (lease expired: %1)")
                        .arg(countText("lease_expired", m_counts.leaseExpired));
        counts << text;
    }
    setAccessibleDescription(
        tr("%1. A DUE event is claimed (IN FLIGHT); an ack delivers it (DELIVERED); a failure "
           "schedules a retry (SCHEDULED, then DUE again) until the budget parks it DEAD; an "
           "expired lease is reclaimed. A DEAD event is replayed (DUE) or resolved (RESOLVED).")
            .arg(counts.join(QStringLiteral(", "))));
}

QSize LifecycleDiagram::sizeHint() const
{
    return QSize(int(DesignWidth), int(DesignHeight));
}

QSize LifecycleDiagram::minimumSizeHint() const
{
    return QSize(520, 250);
}

QList<QRectF> LifecycleDiagram::textRects() const
{
    QList<QRectF> rects;
    for (const Text &text : layoutScene().texts)
        rects << text.rect;
    return rects;
}

void LifecycleDiagram::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(rect(), background());
    const Scene scene = layoutScene();
    const int highlighted = int(m_transition) - 1; // the arrows are drawn in Transition's order
    for (int i = 0; i < scene.arrows.size(); ++i)
        paintArrow(painter, scene.arrows.at(i), i == highlighted);
    for (int state = 0; state < StateCount; ++state)
        paintBox(painter, scene.boxes.at(state), colour(State(state)));
    if (m_transition == Transition::Call) { // the call happens while the event is IN FLIGHT
        painter.setPen(QPen(accent(), 4 * scale()));
        painter.setBrush(Qt::NoBrush);
        painter.drawRoundedRect(scene.boxes.at(InFlight), 8 * scale(), 8 * scale());
    }
    for (const Text &text : scene.texts)
        paintText(painter, text);
}

qreal LifecycleDiagram::scale() const
{
    return std::min(width() / DesignWidth, height() / DesignHeight);
}

QPointF LifecycleDiagram::at(qreal fx, qreal fy) const
{
    return QPointF(fx * width(), fy * height());
}

QFont LifecycleDiagram::font(qreal pixelSize, bool bold) const
{
    QFont result = QWidget::font();
    result.setPixelSize(std::max(6, qRound(pixelSize * scale())));
    result.setBold(bold);
    return result;
}

QRectF LifecycleDiagram::boxRect(State state) const
{
    static const struct
    {
        qreal fx, fy, width, height;
    } boxes[StateCount] = {
        {0.11, 0.50, 104, 56}, // Due
        {0.52, 0.50, 128, 72}, // InFlight: one more line for the expired leases
        {0.31, 0.13, 104, 56}, // Scheduled
        {0.89, 0.50, 104, 56}, // Delivered
        {0.52, 0.87, 104, 56}, // Dead
        {0.89, 0.87, 104, 56}, // Resolved
    };
    const auto &box = boxes[state];
    const QSizeF size(box.width * scale(), box.height * scale());
    QRectF rect(QPointF(), size);
    rect.moveCenter(at(box.fx, box.fy));
    return rect;
}

LifecycleDiagram::Scene LifecycleDiagram::layoutScene() const
{
    Scene scene;
    for (int state = 0; state < StateCount; ++state) {
        scene.boxes << boxRect(State(state));
        addBoxTexts(scene, State(state));
    }
    addArrows(scene);
    return scene;
}

void LifecycleDiagram::addBoxTexts(Scene &scene, State state) const
{
    const QRectF box = boxRect(state);
    QList<Text> lines;
    lines << Text {{}, title(state), font(12, true), colour(state).darker(130), false};
    static const char *const keys[StateCount]
        = {"due", "in_flight", "scheduled", "delivered", "dead", "resolved"};
    const auto number = [this](const char *key, qint64 value) {
        return m_notAvailable.contains(QLatin1String(key)) ? tr("n/a") : QLocale().toString(value);
    };
    lines << Text {
        {}, number(keys[state], count(state)), font(20, true), diagramTextColour(), false};
    if (state == InFlight) {
        lines << Text {{},
            tr("lease expired: %1").arg(number("lease_expired", m_counts.leaseExpired)), font(10),
            m_counts.leaseExpired ? StatusColorProxy::colorFor(QStringLiteral("DEAD"))
                                  : diagramTextColour(),
            false};
    }
    qreal total = 0;
    for (Text &line : lines) {
        line.rect = QFontMetricsF(line.font).boundingRect(line.text);
        total += line.rect.height();
    }
    qreal y = box.center().y() - total / 2;
    for (Text &line : lines) {
        line.rect.moveTopLeft(QPointF(box.center().x() - line.rect.width() / 2, y));
        y += line.rect.height();
        scene.texts << line;
    }
}

void LifecycleDiagram::addArrows(Scene &scene) const
{
    const QRectF due = boxRect(Due), inFlight = boxRect(InFlight), scheduled = boxRect(Scheduled),
                 delivered = boxRect(Delivered), dead = boxRect(Dead), resolved = boxRect(Resolved);
    const qreal s = scale();
    const qreal claimY = due.center().y() - 9 * s;
    const qreal reclaimY = due.center().y() + 9 * s;
    const qreal midLeft = (due.right() + inFlight.left()) / 2;

    addArrow(scene, {QPointF(due.right(), claimY), QPointF(inFlight.left(), claimY)},
        tr("claim (token + lease)"), QPointF(midLeft, claimY), Qt::AlignTop);
    addArrow(scene, {QPointF(inFlight.left(), reclaimY), QPointF(due.right(), reclaimY)},
        tr("lease expired:\nanother worker reclaims"), QPointF(midLeft, reclaimY), Qt::AlignBottom);
    const qreal ackY = inFlight.center().y();
    addArrow(scene, {QPointF(inFlight.right(), ackY), QPointF(delivered.left(), ackY)},
        tr("ack (token-fenced)"), QPointF((inFlight.right() + delivered.left()) / 2, ackY),
        Qt::AlignTop);

    const qreal failX = inFlight.center().x();
    addArrow(scene,
        {QPointF(failX, inFlight.top()), QPointF(failX, scheduled.center().y()),
            QPointF(scheduled.right(), scheduled.center().y())},
        tr("transient failure:\nfailures+1, due = now + delay"),
        QPointF(failX, (scheduled.center().y() + inFlight.top()) / 2), Qt::AlignRight);
    const qreal dueX = due.center().x();
    addArrow(scene,
        {QPointF(scheduled.left(), scheduled.center().y()), QPointF(dueX, scheduled.center().y()),
            QPointF(dueX, due.top())},
        tr("due time reached"), QPointF(dueX, (scheduled.bottom() + due.top()) / 2),
        Qt::AlignRight);

    addArrow(scene, {QPointF(failX, inFlight.bottom()), QPointF(failX, dead.top())},
        tr("permanent, or budget spent"), QPointF(failX, (inFlight.bottom() + dead.top()) / 2),
        Qt::AlignRight);
    addArrow(scene,
        {QPointF(dead.left(), dead.center().y()), QPointF(dueX, dead.center().y()),
            QPointF(dueX, due.bottom())},
        tr("operator replay (same event ID)"), QPointF((dueX + dead.left()) / 2, dead.center().y()),
        Qt::AlignTop);
    const qreal resolveY = dead.center().y();
    addArrow(scene, {QPointF(dead.right(), resolveY), QPointF(resolved.left(), resolveY)},
        tr("operator resolve\n(no delivery)"),
        QPointF((dead.right() + resolved.left()) / 2, resolveY), Qt::AlignTop);
}

void LifecycleDiagram::addArrow(Scene &scene, const QPolygonF &path, const QString &label,
    QPointF anchor, Qt::Alignment side) const
{
    const bool highlighted = int(m_transition) - 1 == scene.arrows.size();
    scene.arrows << path;
    scene.arrowLabels << label;
    Text text {
        {}, label, font(10, highlighted), highlighted ? accent() : diagramTextColour(), true};
    const QFontMetricsF metrics(text.font);
    QRectF rect = metrics.boundingRect(QRectF(), Qt::AlignCenter, label).adjusted(-3, -1, 3, 1);
    const qreal gap = 3 * scale();
    if (side & Qt::AlignTop)
        rect.moveCenter(QPointF(anchor.x(), anchor.y() - gap - rect.height() / 2));
    else if (side & Qt::AlignBottom)
        rect.moveCenter(QPointF(anchor.x(), anchor.y() + gap + rect.height() / 2));
    else
        rect.moveCenter(QPointF(anchor.x() + gap + rect.width() / 2, anchor.y()));
    text.rect = rect;
    scene.texts << text;
}

void LifecycleDiagram::paintBox(QPainter &painter, const QRectF &rect, const QColor &colour) const
{
    painter.setPen(QPen(colour, 2 * scale()));
    painter.setBrush(tint(colour, 0.14));
    const qreal radius = 8 * scale();
    painter.drawRoundedRect(rect, radius, radius);
}

void LifecycleDiagram::paintArrow(QPainter &painter, const QPolygonF &path, bool highlighted) const
{
    const qreal s = scale() * (highlighted ? 2.5 : 1);
    const QColor colour = highlighted ? accent() : arrowColour();
    painter.setPen(QPen(colour, 1.5 * s));
    painter.setBrush(Qt::NoBrush);
    painter.drawPolyline(path);
    // The head sits on the path's last point, pointing along its last segment.
    const QLineF last(path.at(path.size() - 2), path.last());
    const qreal angle = qDegreesToRadians(last.angle());
    const qreal length = 9 * s, spread = 0.45;
    const QPointF tip = path.last();
    const auto wing = [&](qreal side) {
        return tip
            + QPointF(-std::cos(angle + side * spread) * length,
                std::sin(angle + side * spread) * length);
    };
    painter.setBrush(colour);
    painter.setPen(Qt::NoPen);
    painter.drawPolygon(QPolygonF({tip, wing(1), wing(-1)}));
}

void LifecycleDiagram::paintText(QPainter &painter, const Text &text) const
{
    if (text.backed) {
        painter.setPen(Qt::NoPen);
        QColor backing = background();
        backing.setAlpha(225);
        painter.setBrush(backing);
        painter.drawRoundedRect(text.rect, 3, 3);
    }
    painter.setFont(text.font);
    painter.setPen(text.colour);
    painter.drawText(text.rect, Qt::AlignCenter, text.text);
}

QString LifecycleDiagram::title(State state)
{
    switch (state) {
    case Due:
        return tr("DUE");
    case InFlight:
        return tr("IN FLIGHT");
    case Scheduled:
        return tr("SCHEDULED");
    case Delivered:
        return tr("DELIVERED");
    case Dead:
        return tr("DEAD");
    case Resolved:
        return tr("RESOLVED");
    case StateCount:
        break;
    }
    return {};
}

QColor LifecycleDiagram::colour(State state)
{
    // By the untranslated status word, as the tables colour it.
    static const char *const words[StateCount]
        = {"DUE", "IN FLIGHT", "SCHEDULED", "DELIVERED", "DEAD", "RESOLVED"};
    return StatusColorProxy::colorFor(QLatin1String(words[state]));
}

qint64 LifecycleDiagram::count(State state) const
{
    switch (state) {
    case Due:
        return m_counts.due;
    case InFlight:
        return m_counts.inFlight;
    case Scheduled:
        return m_counts.scheduled;
    case Delivered:
        return m_counts.delivered;
    case Dead:
        return m_counts.dead;
    case Resolved:
        return m_counts.resolved;
    case StateCount:
        break;
    }
    return 0;
}

// RESOLVED exists on the native schema from version 2 (a profile's snapshot has none).
void LifecycleDiagram::showSnapshot(const HealthSnapshot &snapshot)
{
    setCounts(snapshot.counts);
    setNotAvailable(snapshot.schemaVersion >= 2
            ? snapshot.notAvailable
            : snapshot.notAvailable + QStringList {QStringLiteral("resolved")});
}

void LifecycleDiagram::setTransition(Transition transition)
{
    if (transition == m_transition)
        return;
    m_transition = transition;
    update();
}

QString LifecycleDiagram::transitionText() const
{
    if (m_transition == Transition::None)
        return {};
    if (m_transition == Transition::Call)
        return tr("transport call");
    return layoutScene().arrowLabels.value(int(m_transition) - 1);
}
