#include "activefilterbar.h"

#include "plaintext.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

namespace {

constexpr int ChipValueLength = 48; // a long signature or payload: whole in the tooltip

QString shortened(const QString &text)
{
    QString shown = PlainText::escaped(text);
    if (shown.size() > ChipValueLength)
        shown = shown.left(ChipValueLength - 1) + QChar(0x2026);
    return shown.replace(u'&', u"&&"_qs); // a button reads '&' as its shortcut's mark
}

} // namespace

ActiveFilterBar::ActiveFilterBar(QWidget *parent)
    : QWidget(parent)
    , m_chipRow(new QHBoxLayout)
    , m_none(new QLabel(tr("No filter: every event is shown")))
    , m_rowsLabel(new QLabel)
    , m_clear(new QToolButton)
    , m_findMessage(new QLabel)
{
    setObjectName(QStringLiteral("activeFilterBar"));
    m_none->setObjectName(QStringLiteral("noFilterLabel"));
    m_none->setEnabled(false); // greyed: a remark, not a control
    m_rowsLabel->setObjectName(QStringLiteral("filterRowsLabel"));
    m_rowsLabel->setStyleSheet(QStringLiteral("font-style: italic"));
    m_rowsLabel->hide();
    m_clear->setObjectName(QStringLiteral("clearFilterButton"));
    m_clear->setText(tr("Clear all"));
    m_clear->setToolTip(tr("Remove every filter: show every event again"));
    m_clear->setAccessibleName(tr("Clear all filters"));
    m_clear->setAutoRaise(true);
    m_findMessage->setObjectName(QStringLiteral("findEventMessage"));
    m_findMessage->setTextFormat(Qt::PlainText); // names an event ID
    m_findMessage->setWordWrap(true);
    m_findMessage->hide();

    auto *line = new QHBoxLayout;
    line->setContentsMargins(0, 0, 0, 0);
    m_chipRow->setSpacing(4);
    line->addWidget(m_none);
    line->addLayout(m_chipRow);
    line->addWidget(m_rowsLabel);
    line->addWidget(m_clear);
    line->addStretch(1);
    auto *rows = new QVBoxLayout(this);
    rows->setContentsMargins(2, 0, 2, 0);
    rows->setSpacing(2);
    rows->addLayout(line);
    rows->addWidget(m_findMessage);
    connect(m_clear, &QToolButton::clicked, this, &ActiveFilterBar::clearRequested);
    rebuildChips();
}

void ActiveFilterBar::setFilter(const EventFilter &filter)
{
    if (filter == m_filter)
        return;
    m_filter = filter;
    rebuildChips();
}

// One chip per criterion; the keyboard focus stays on the chip now in the removed one's place.
void ActiveFilterBar::rebuildChips()
{
    const auto focused = std::find_if(
        m_chips.cbegin(), m_chips.cend(), [](const QToolButton *chip) { return chip->hasFocus(); });
    const qsizetype focusAt = focused == m_chips.cend() ? -1 : focused - m_chips.cbegin();
    for (QToolButton *chip : std::as_const(m_chips)) {
        chip->hide(); // out of the focus chain now; deleted once its click has returned
        chip->deleteLater();
    }
    m_chips.clear();
    for (const EventFilter::Criterion &criterion : m_filter.criteria()) {
        auto *chip = new QToolButton;
        chip->setObjectName(QStringLiteral("filterChip"));
        chip->setText(criterion.name + u": "_qs + shortened(criterion.value) + u"  ×"_qs);
        // A signature's "<n>" must not read as markup: PlainText::toolTip keeps it text.
        chip->setToolTip(PlainText::toolTip(
            tr("%1. Click, or press Delete, to remove this filter").arg(criterion.text())));
        chip->setAccessibleName(tr("Remove filter %1").arg(PlainText::escaped(criterion.text())));
        chip->setFocusPolicy(Qt::StrongFocus);
        chip->setProperty("field", int(criterion.field));
        chip->installEventFilter(this);
        connect(chip, &QToolButton::clicked, this, [this, chip] { removeChip(chip); });
        m_chipRow->addWidget(chip);
        m_chips << chip;
    }
    const bool filtered = !m_chips.isEmpty();
    m_none->setVisible(!filtered);
    m_clear->setVisible(filtered);
    updateVisibility();
    if (focusAt >= 0) {
        if (QWidget *next = m_chips.value(std::min(focusAt, m_chips.size() - 1)))
            next->setFocus(Qt::OtherFocusReason);
        else
            focusNextChild(); // the last chip went: on to the table
    }
}

void ActiveFilterBar::removeChip(QToolButton *chip)
{
    emit removeRequested(EventFilter::Field(chip->property("field").toInt()));
}

bool ActiveFilterBar::eventFilter(QObject *watched, QEvent *event)
{
    auto *chip = qobject_cast<QToolButton *>(watched);
    if (chip && m_chips.contains(chip) && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent *>(event)->key();
        if (key == Qt::Key_Backspace || key == Qt::Key_Delete) {
            removeChip(chip);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void ActiveFilterBar::setRows(Rows rows)
{
    m_rows = rows;
    m_rowsLabel->setText(rowsText());
    m_rowsLabel->setVisible(rows != Rows::Current);
}

QString ActiveFilterBar::rowsText() const
{
    switch (m_rows) {
    case Rows::Current:
        break;
    case Rows::Searching:
        return tr("searching…");
    case Rows::Failed:
        return tr("not applied: the read failed (the rows are the previous filter's)");
    }
    return {};
}

QString ActiveFilterBar::text() const
{
    QStringList parts;
    for (const EventFilter::Criterion &criterion : m_filter.criteria())
        parts << criterion.text();
    if (parts.isEmpty())
        return {};
    const QString rows = rowsText();
    return tr("Filtered: %1").arg(parts.join(u", "_qs))
        + (rows.isEmpty() ? QString() : u" — "_qs + rows);
}

void ActiveFilterBar::setFindMessage(const QString &message)
{
    m_findMessage->setText(message);
    m_findMessage->setVisible(!message.isEmpty());
    updateVisibility();
}

// No line at all while nothing is filtered and nothing was found: the table keeps its rows.
void ActiveFilterBar::updateVisibility()
{
    setVisible(!m_chips.isEmpty() || !m_findMessage->text().isEmpty());
}

QString ActiveFilterBar::findMessage() const
{
    return m_findMessage->isVisibleTo(this) ? m_findMessage->text() : QString();
}
