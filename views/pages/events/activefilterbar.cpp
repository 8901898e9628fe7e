#include "activefilterbar.h"

#include "plaintext.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
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
    , m_searchingLabel(new QLabel(tr("searching…")))
    , m_clear(new QToolButton)
    , m_find(new QLineEdit)
    , m_findMessage(new QLabel)
{
    setObjectName(QStringLiteral("activeFilterBar"));
    m_none->setObjectName(QStringLiteral("noFilterLabel"));
    m_none->setEnabled(false); // greyed: a remark, not a control
    m_searchingLabel->setObjectName(QStringLiteral("filterSearchingLabel"));
    m_searchingLabel->setStyleSheet(QStringLiteral("font-style: italic"));
    m_searchingLabel->hide();
    m_clear->setObjectName(QStringLiteral("clearFilterButton"));
    m_clear->setText(tr("Clear all"));
    m_clear->setToolTip(tr("Remove every filter: show every event again"));
    m_clear->setAccessibleName(tr("Clear all filters"));
    m_clear->setAutoRaise(true);
    m_find->setObjectName(QStringLiteral("findEventField"));
    m_find->setPlaceholderText(tr("Find event ID (Ctrl+F)"));
    m_find->setToolTip(tr("Shows the event with this ID whatever the filters, and says which "
                          "filter hides it from the table"));
    m_find->setAccessibleName(tr("Find event by ID"));
    m_find->setClearButtonEnabled(true);
    m_find->setMaximumWidth(220);
    m_findMessage->setObjectName(QStringLiteral("findEventMessage"));
    m_findMessage->setTextFormat(Qt::PlainText); // names an event ID
    m_findMessage->setWordWrap(true);
    m_findMessage->hide();

    auto *line = new QHBoxLayout;
    line->setContentsMargins(0, 0, 0, 0);
    m_chipRow->setSpacing(4);
    line->addWidget(m_none);
    line->addLayout(m_chipRow);
    line->addWidget(m_searchingLabel);
    line->addWidget(m_clear);
    line->addStretch(1);
    line->addWidget(m_find);
    auto *rows = new QVBoxLayout(this);
    rows->setContentsMargins(2, 0, 2, 0);
    rows->setSpacing(2);
    rows->addLayout(line);
    rows->addWidget(m_findMessage);
    connect(m_clear, &QToolButton::clicked, this, &ActiveFilterBar::clearRequested);
    connect(m_find, &QLineEdit::returnPressed, this, [this] {
        if (const QString id = m_find->text().trimmed(); !id.isEmpty())
            emit findRequested(id);
    });
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
    for (QToolButton *chip : std::as_const(m_chips))
        chip->deleteLater();
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
    if (focusAt >= 0) {
        if (QWidget *next = m_chips.value(std::min(focusAt, m_chips.size() - 1)))
            next->setFocus(Qt::OtherFocusReason);
        else
            m_find->setFocus(Qt::OtherFocusReason);
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

void ActiveFilterBar::setSearching(bool searching)
{
    m_searching = searching;
    m_searchingLabel->setVisible(searching);
}

QString ActiveFilterBar::text() const
{
    QStringList parts;
    for (const EventFilter::Criterion &criterion : m_filter.criteria())
        parts << criterion.text();
    if (parts.isEmpty())
        return {};
    return tr("Filtered: %1").arg(parts.join(u", "_qs))
        + (m_searching ? tr(" — searching…") : QString());
}

void ActiveFilterBar::setFindMessage(const QString &message)
{
    m_findMessage->setText(message);
    m_findMessage->setVisible(!message.isEmpty());
}

QString ActiveFilterBar::findMessage() const
{
    return m_findMessage->isVisibleTo(this) ? m_findMessage->text() : QString();
}

void ActiveFilterBar::focusFind()
{
    m_find->setFocus(Qt::ShortcutFocusReason);
    m_find->selectAll();
}
