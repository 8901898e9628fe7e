#include "cdcpathdiagram.h"

#include "cdclesson.h"
#include "simulatedcdcrelay.h"
#include "themecolours.h"

#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>

namespace {

constexpr qreal Margin = 8;
constexpr qreal Gap = 34; // between two boxes: room for an arrow
constexpr qreal BarHeight = 16;
constexpr qreal BarArea = 60; // the bar, its caption and its marks' labels
constexpr qreal MaxBoxHeight = 180;

} // namespace

CdcPathDiagram::CdcPathDiagram(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("cdcPathDiagram"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    // Taller would only add empty space: the narration below gets it.
    setMaximumHeight(int(2 * Margin + MaxBoxHeight + BarArea));
    setFocusPolicy(Qt::StrongFocus);
    setAccessibleName(tr("Change data capture path"));
    updateSummary();
}

QString CdcPathDiagram::title(Step step)
{
    switch (step) {
    case Service:
        return tr("Service transaction");
    case Wal:
        return tr("WAL");
    case Slot:
        return tr("Replication slot");
    case Connector:
        return tr("Connector (Debezium)");
    case Broker:
    case StepCount:
        break;
    }
    return tr("Broker");
}

// What each box says now, and how bad it is, with the slot's retained WAL for the bar.
void CdcPathDiagram::setRelay(const SimulatedCdcRelay &relay, qint64 nowMs)
{
    describe(relay, nowMs);
    grade(relay);
    m_retained = relay.retainedBytes();
    m_reservedLimit = relay.settings().maxWalSizeBytes;
    m_keepLimit = relay.settings().maxSlotWalKeepBytes.value_or(0);
    m_barLevel = m_levels[Wal];
    updateSummary();
    update();
}

// The slot's figures as pg_replication_slots shows them, the connector's state, what reached
// the broker.
void CdcPathDiagram::describe(const SimulatedCdcRelay &relay, qint64 nowMs)
{
    const QLocale locale;
    const QString confirmed = SimulatedCdcRelay::lsnText(relay.confirmedFlushLsn());
    m_states[Service]
        = tr("INSERT INTO outbox\n%1 events").arg(locale.toString(relay.eventsInserted()));
    m_states[Wal] = tr("at %1\n%2 retained")
                        .arg(SimulatedCdcRelay::lsnText(relay.walLsn()),
                            CdcLesson::bytesText(relay.retainedBytes()));
    if (relay.isLost())
        m_states[Slot] = tr("LOST (invalidated)");
    else if (relay.slotActive())
        m_states[Slot] = tr("active · %1\nlag %2")
                             .arg(relay.walStatusName(), CdcLesson::bytesText(relay.lagBytes()));
    else
        m_states[Slot] = tr("INACTIVE %1 s · %2\nlag %3")
                             .arg(relay.inactiveForMs(nowMs).value_or(0) / 1000)
                             .arg(relay.walStatusName(), CdcLesson::bytesText(relay.lagBytes()));
    if (relay.isLost())
        m_states[Connector] = tr("cannot resume\nfrom the lost slot");
    else
        m_states[Connector]
            = (relay.connectorRunning() ? tr("running\nconfirmed %1") : tr("STALLED\nconfirmed %1"))
                  .arg(confirmed);
    m_states[Broker] = tr("%1 events").arg(locale.toString(relay.eventsPublished()));
    if (relay.eventsLost() > 0)
        m_states[Broker] += tr("\n%1 lost").arg(locale.toString(relay.eventsLost()));
}

// Amber: at risk (an idle slot, WAL past max_wal_size); red: broken (past the limit, lost).
void CdcPathDiagram::grade(const SimulatedCdcRelay &relay)
{
    using S = SimulatedCdcRelay::WalStatus;
    const S status = relay.walStatus();
    const bool broken = status == S::Unreserved || status == S::Lost;
    m_levels[Service] = Level::Normal;
    m_levels[Wal] = broken ? Level::Red : status == S::Extended ? Level::Amber : Level::Normal;
    m_levels[Slot] = broken ? Level::Red : relay.slotActive() ? Level::Normal : Level::Amber;
    m_levels[Connector] = relay.isLost() ? Level::Red
        : relay.connectorRunning()       ? Level::Normal
                                         : Level::Amber;
    m_levels[Broker] = relay.eventsLost() > 0 || relay.isLost() ? Level::Red : Level::Normal;
}

void CdcPathDiagram::select(Step step)
{
    if (step == m_selected || step < 0 || step >= StepCount)
        return;
    m_selected = step;
    update();
    emit selectedChanged(step);
}

void CdcPathDiagram::updateSummary()
{
    QStringList parts;
    for (int step = 0; step < StepCount; ++step)
        parts << title(Step(step)) + QStringLiteral(": ")
                + QString(m_states[step]).replace(u'\n', QStringLiteral(", "));
    setAccessibleDescription(parts.join(QStringLiteral("; ")));
}

QRectF CdcPathDiagram::boxRect(int step) const
{
    const qreal width = (this->width() - 2 * Margin - (int(StepCount) - 1) * Gap) / int(StepCount);
    const qreal height = std::max<qreal>(60, this->height() - 2 * Margin - BarArea);
    return QRectF(
        Margin + step * (width + Gap), Margin, width, std::min<qreal>(height, MaxBoxHeight));
}

QRectF CdcPathDiagram::barRect() const
{
    const QRectF first = boxRect(0);
    return QRectF(Margin, first.bottom() + 22, width() - 2 * Margin, BarHeight);
}

void CdcPathDiagram::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(rect(), ThemeColours::current().color(QPalette::Base));
    paintArrows(painter);
    for (int step = 0; step < StepCount; ++step)
        paintBox(painter, step);
    paintBar(painter);
}

void CdcPathDiagram::paintBox(QPainter &painter, int step) const
{
    using TL = ThemeColours::TileLevel;
    const Level level = m_levels[step];
    const ThemeColours::Tile tile = ThemeColours::tile(level == Level::Red ? TL::Red
            : level == Level::Amber                                        ? TL::Amber
                                                                           : TL::Normal);
    const QRectF box = boxRect(step);
    const bool selected = step == m_selected;
    painter.setPen(QPen(selected ? ThemeColours::current().color(QPalette::Highlight) : tile.border,
        selected ? 3 : 1.5));
    painter.setBrush(tile.background);
    painter.drawRoundedRect(box, 6, 6);
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(tile.text);
    QRectF inner = box.adjusted(6, 6, -6, -6);
    inner.adjust(0, std::max<qreal>(0, inner.height() - 110) / 2, 0, 0); // a tall box: centred
    const qreal titleHeight = QFontMetricsF(bold).height() * 2;
    painter.drawText(QRectF(inner.topLeft(), QSizeF(inner.width(), titleHeight)),
        Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, title(Step(step)));
    painter.setFont(font());
    painter.drawText(inner.adjusted(0, titleHeight, 0, 0),
        Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, m_states[step]);
}

void CdcPathDiagram::paintArrows(QPainter &painter) const
{
    const QColor colour = ThemeColours::current().color(QPalette::Text);
    painter.setPen(QPen(colour, 1.5));
    painter.setBrush(colour);
    for (int step = 0; step + 1 < StepCount; ++step) {
        const QRectF from = boxRect(step), to = boxRect(step + 1);
        const qreal y = from.center().y();
        const QPointF tip(to.left() - 2, y);
        painter.drawLine(QPointF(from.right() + 2, y), tip);
        painter.drawPolygon(QPolygonF({tip, tip + QPointF(-7, -4), tip + QPointF(-7, 4)}));
    }
}

// The retained WAL against max_wal_size (beyond: extended) and max_slot_wal_keep_size (beyond:
// unreserved, then lost at the next checkpoint).
void CdcPathDiagram::paintBar(QPainter &painter) const
{
    const QRectF bar = barRect();
    const QPalette palette = ThemeColours::current();
    const qint64 scale
        = std::max<qint64>(1, qint64((m_keepLimit ? m_keepLimit : m_reservedLimit * 2) * 1.15));
    const auto xOf = [&](qint64 value) {
        return bar.left() + bar.width() * std::min(1.0, double(value) / double(scale));
    };
    painter.setPen(QPen(palette.color(QPalette::Mid), 1));
    painter.setBrush(palette.color(QPalette::AlternateBase));
    painter.drawRect(bar);
    using TL = ThemeColours::TileLevel;
    const ThemeColours::Tile tile = ThemeColours::tile(m_barLevel == Level::Red ? TL::Red
            : m_barLevel == Level::Amber                                        ? TL::Amber
                                                                                : TL::Normal);
    painter.setBrush(
        m_barLevel == Level::Normal ? palette.color(QPalette::Highlight) : tile.border);
    painter.drawRect(QRectF(bar.topLeft(), QPointF(xOf(m_retained), bar.bottom())));
    painter.setPen(palette.color(QPalette::Text));
    painter.drawText(QRectF(bar.left(), bar.top() - 20, bar.width(), 18),
        Qt::AlignLeft | Qt::AlignBottom,
        tr("WAL the slot retains: %1").arg(CdcLesson::bytesText(m_retained)));
    const auto mark = [&](qint64 value, const QString &label) {
        const qreal x = xOf(value);
        painter.drawLine(QPointF(x, bar.top() - 3), QPointF(x, bar.bottom() + 3));
        painter.drawText(
            QRectF(x - 200, bar.bottom() + 2, 200, 18), Qt::AlignRight | Qt::AlignTop, label);
    };
    mark(m_reservedLimit, tr("max_wal_size %1").arg(CdcLesson::bytesText(m_reservedLimit)));
    if (m_keepLimit)
        mark(m_keepLimit, tr("max_slot_wal_keep_size %1").arg(CdcLesson::bytesText(m_keepLimit)));
}

void CdcPathDiagram::mousePressEvent(QMouseEvent *event)
{
    for (int step = 0; step < StepCount; ++step) {
        if (boxRect(step).contains(event->position()))
            select(Step(step));
    }
    setFocus(Qt::MouseFocusReason);
}

void CdcPathDiagram::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Left && m_selected > 0)
        select(Step(m_selected - 1));
    else if (event->key() == Qt::Key_Right && m_selected + 1 < StepCount)
        select(Step(m_selected + 1));
    else
        QWidget::keyPressEvent(event);
}
