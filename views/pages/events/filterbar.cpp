#include "filterbar.h"

#include "durationtext.h"
#include "payloadsearch.h"
#include "redaction.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTimer>

FilterBar::FilterBar(QWidget *parent)
    : QWidget(parent)
    , m_state(new QComboBox)
    , m_searchMode(new QComboBox)
    , m_search(new QLineEdit)
    , m_minFailures(new QSpinBox)
    , m_minAge(new QLineEdit)
    , m_maxAge(new QLineEdit)
    , m_category(new QComboBox)
    , m_payload(new QLineEdit)
    , m_payloadError(new QLabel)
    , m_find(new QLineEdit)
    , m_debounce(new QTimer(this))
{
    setupFields();
    nameFields();
    arrangeFields();
    connectFields();
}

void FilterBar::setupFields()
{
    m_state->setObjectName(QStringLiteral("stateFilter"));
    const QList<std::pair<EventFilter::State, QString>> states = {
        {EventFilter::State::Any, tr("All events")}, {EventFilter::State::Pending, tr("Pending")},
        {EventFilter::State::Due, tr("Due")}, {EventFilter::State::Scheduled, tr("Scheduled")},
        {EventFilter::State::InFlight, tr("In flight")},
        {EventFilter::State::LeaseExpired, tr("Lease expired")},
        {EventFilter::State::Delivered, tr("Delivered")}, {EventFilter::State::Dead, tr("DEAD")},
        {EventFilter::State::Resolved, tr("Resolved")}};
    for (const auto &[state, label] : states)
        m_state->addItem(label, int(state));
    m_searchMode->setObjectName(QStringLiteral("searchModeFilter"));
    m_searchMode->addItem(tr("ID starts with"), int(EventFilter::SearchMode::IdPrefix));
    m_searchMode->addItem(tr("Text contains"), int(EventFilter::SearchMode::Contains));
    m_search->setObjectName(QStringLiteral("searchFilter"));
    showSearchMode();
    m_search->setClearButtonEnabled(true);
    m_minFailures->setRange(0, 1000);
    m_minFailures->setPrefix(tr("≥ "));
    m_minFailures->setToolTip(tr("Minimum failures"));
    m_minAge->setPlaceholderText(tr("min age"));
    m_maxAge->setPlaceholderText(tr("max age"));
    for (QLineEdit *age : {m_minAge, m_maxAge}) {
        age->setToolTip(tr("An age such as 90s, 5m, 2h, 1d, or milliseconds"));
        age->setMaximumWidth(80);
    }
    m_category->addItem(tr("Any error"), QString());
    m_category->addItem(tr("Transient"), QStringLiteral("TRANSIENT"));
    m_category->addItem(tr("Permanent"), QStringLiteral("PERMANENT"));
    m_payload->setObjectName(QStringLiteral("payloadFilter"));
    m_payload->setPlaceholderText(tr("a JSON fragment such as {\"orderId\": 4711}, or text"));
    m_payload->setToolTip(tr("A JSON fragment finds the payloads that contain it; other text is "
                             "a case-insensitive substring (off while values are redacted). "
                             "Reads every row unless the payload index exists."));
    m_payload->setClearButtonEnabled(true);
    m_payload->setMaxLength(int(PayloadSearch::MaxBytes));
    m_find->setObjectName(QStringLiteral("findEventField"));
    m_find->setPlaceholderText(tr("Find event ID (Ctrl+F)"));
    m_find->setToolTip(tr("Shows the event with this ID whatever the filters, and says which "
                          "filter hides it from the table"));
    m_find->setClearButtonEnabled(true);
    // Its hint whole ("Find event ID (Ctrl+F)"); the payload field beside it gives way.
    m_find->setMinimumWidth(
        m_find->fontMetrics().horizontalAdvance(m_find->placeholderText()) + 40);
    m_find->setMaximumWidth(240);
    m_payloadError->setObjectName(QStringLiteral("payloadError"));
    m_payloadError->setWordWrap(true);
    m_payloadError->setVisible(false);
}

// What a screen reader names each field (the labels beside them are not buddies).
void FilterBar::nameFields()
{
    // A combo box is named by its purpose and its value ("State filter: DEAD"), never by its
    // value alone.
    const auto name = [](QComboBox *box, const QString &purpose) {
        const auto update = [box, purpose] {
            box->setAccessibleName(purpose + QStringLiteral(": ") + box->currentText());
        };
        connect(box, &QComboBox::currentTextChanged, box, update);
        update();
    };
    name(m_state, tr("State filter"));
    name(m_searchMode, tr("Search by"));
    name(m_category, tr("Error category filter"));
    m_search->setAccessibleName(tr("Search"));
    m_minFailures->setAccessibleName(tr("Minimum failures"));
    m_minAge->setAccessibleName(tr("Minimum age"));
    m_maxAge->setAccessibleName(tr("Maximum age"));
    m_payload->setAccessibleName(tr("Payload contains"));
    m_find->setAccessibleName(tr("Find event by ID"));
}

void FilterBar::arrangeFields()
{
    auto *rows = new QVBoxLayout(this);
    rows->setContentsMargins(0, 0, 0, 0);
    // Two rows: at 1366 px the payload field beside the others left each of them a few
    // characters wide.
    auto *layout = new QHBoxLayout;
    auto *payloadRow = new QHBoxLayout;
    rows->addLayout(layout);
    rows->addLayout(payloadRow);
    rows->addWidget(m_payloadError);
    payloadRow->addWidget(new QLabel(tr("Payload contains")));
    payloadRow->addWidget(m_payload, 1);
    payloadRow->addSpacing(12);
    payloadRow->addWidget(m_find);
    layout->addWidget(m_state);
    layout->addWidget(m_searchMode);
    layout->addWidget(m_search, 1);
    layout->addWidget(new QLabel(tr("Failures")));
    layout->addWidget(m_minFailures);
    layout->addWidget(new QLabel(tr("Age")));
    layout->addWidget(m_minAge);
    layout->addWidget(new QLabel(QStringLiteral("–")));
    layout->addWidget(m_maxAge);
    layout->addWidget(m_category);
}

void FilterBar::connectFields()
{
    // Typing refines the filter after a short pause instead of querying on every key.
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(250);
    connect(m_debounce, &QTimer::timeout, this, &FilterBar::emitChecked);
    connect(m_state, &QComboBox::currentIndexChanged, this, &FilterBar::emitSoon);
    connect(m_category, &QComboBox::currentIndexChanged, this, &FilterBar::emitSoon);
    connect(m_searchMode, &QComboBox::currentIndexChanged, this, [this] {
        showSearchMode();
        if (!m_search->text().trimmed().isEmpty())
            emitSoon();
    });
    connect(m_minFailures, &QSpinBox::valueChanged, this, &FilterBar::emitSoon);
    // An event ID (or its beginning) is answered from the primary key: no need to wait for
    // the typing to pause, and a newer search supersedes (and cancels) the older one anyway.
    connect(m_search, &QLineEdit::textChanged, this,
        [this] { isPrefixSearch() ? emitNow() : emitSoon(); });
    connect(m_search, &QLineEdit::returnPressed, this, &FilterBar::emitNow);
    for (QLineEdit *edit : {m_minAge, m_maxAge, m_payload})
        connect(edit, &QLineEdit::textChanged, this, &FilterBar::emitSoon);
    connect(m_payload, &QLineEdit::returnPressed, this, &FilterBar::emitNow);
    connect(m_find, &QLineEdit::returnPressed, this, [this] {
        if (const QString id = m_find->text().trimmed(); !id.isEmpty())
            emit findRequested(id);
    });
}

bool FilterBar::isPrefixSearch() const
{
    return m_searchMode->currentData().toInt() == int(EventFilter::SearchMode::IdPrefix);
}

void FilterBar::showSearchMode()
{
    const bool prefix = isPrefixSearch();
    m_search->setPlaceholderText(prefix
            ? tr("Event ID or its beginning (exact case): instant")
            : tr("Text in ID, type, aggregate or last error: reads every row"));
    m_search->setToolTip(prefix
            ? tr("Answered from the primary key at any size")
            : tr("Case-insensitive; on a big outbox this reads the whole table"));
}

void FilterBar::emitSoon()
{
    m_debounce->start();
}

void FilterBar::emitNow()
{
    emitChecked();
}

void FilterBar::emitChecked()
{
    m_debounce->stop();
    QString why;
    if (m_payload->isEnabled()) // disabled: its text is not searched, whatever it holds
        PayloadSearch::parse(m_payload->text(), Redaction::sensitiveKeys(QSettings()), &why);
    m_payloadError->setText(why);
    m_payloadError->setVisible(!why.isEmpty());
    if (why.isEmpty())
        emit filterChanged(filter());
}

QString FilterBar::payloadSearch() const
{
    if (!m_payload->isEnabled())
        return {}; // the profile maps no payload: a remembered search is not run
    QString why;
    PayloadSearch::parse(m_payload->text(), Redaction::sensitiveKeys(QSettings()), &why);
    return why.isEmpty() ? m_payload->text().trimmed() : QString();
}

EventFilter FilterBar::filter() const
{
    EventFilter filter;
    filter.state = EventFilter::State(m_state->currentData().toInt());
    filter.search = m_search->text().trimmed();
    filter.searchMode = EventFilter::SearchMode(m_searchMode->currentData().toInt());
    filter.minFailures = m_minFailures->value();
    filter.minAgeMs = DurationText::parseMs(m_minAge->text());
    filter.maxAgeMs = DurationText::parseMs(m_maxAge->text());
    filter.errorCategory = m_category->currentData().toString();
    filter.eventType = m_eventType;
    filter.errorSignature = m_errorSignature;
    filter.payloadContains = payloadSearch();
    return filter;
}

void FilterBar::setFilter(const EventFilter &filter)
{
    m_eventType = filter.eventType;
    m_errorSignature = filter.errorSignature;
    m_state->setCurrentIndex(m_state->findData(int(filter.state)));
    m_searchMode->setCurrentIndex(std::max(0, m_searchMode->findData(int(filter.searchMode))));
    m_search->setText(filter.search);
    m_minFailures->setValue(filter.minFailures);
    m_minAge->setText(filter.minAgeMs ? QString::number(*filter.minAgeMs) : QString());
    m_maxAge->setText(filter.maxAgeMs ? QString::number(*filter.maxAgeMs) : QString());
    m_category->setCurrentIndex(std::max(0, m_category->findData(filter.errorCategory)));
    m_payload->setText(filter.payloadContains);
    emitChecked();
}

void FilterBar::focusFind()
{
    m_find->setFocus(Qt::ShortcutFocusReason);
    m_find->selectAll();
}

void FilterBar::clearSearch()
{
    if (m_search->text().isEmpty())
        return;
    EventFilter current = filter();
    current.search.clear();
    setFilter(current);
}

void FilterBar::setProfile(const OutboxProfile &profile)
{
    using C = OutboxProfile::Column;
    const QString why = tr("Not available for %1").arg(profile.name());
    const auto available = [&why](QWidget *widget, bool on) {
        widget->setEnabled(on);
        if (!on)
            widget->setToolTip(why);
    };
    available(m_minFailures, profile.isAvailable(C::Failures));
    available(m_minAge, profile.isAvailable(C::CreatedAt));
    available(m_maxAge, profile.isAvailable(C::CreatedAt));
    available(m_category, profile.isAvailable(C::LastErrorCategory));
    available(m_payload, profile.isAvailable(C::Payload));
    if (!profile.isAvailable(C::Payload))
        m_payload->setToolTip(PayloadSearch::notAvailableReason(profile.name()));
    QStringList counts = profile.notAvailableCounts();
    if (!profile.isNative())
        counts << QStringLiteral("resolved"); // another library's table has no RESOLVED state
    const QList<std::pair<EventFilter::State, QString>> states
        = {{EventFilter::State::InFlight, QStringLiteral("in_flight")},
            {EventFilter::State::LeaseExpired, QStringLiteral("lease_expired")},
            {EventFilter::State::Delivered, QStringLiteral("delivered")},
            {EventFilter::State::Dead, QStringLiteral("dead")},
            {EventFilter::State::Resolved, QStringLiteral("resolved")}};
    auto *items = qobject_cast<QStandardItemModel *>(m_state->model());
    for (const auto &[state, key] : states) {
        const int index = m_state->findData(int(state));
        if (items && index >= 0 && counts.contains(key))
            items->item(index)->setEnabled(false);
    }
    EventFilter current = filter();
    if (!m_minFailures->isEnabled())
        current.minFailures = 0;
    if (!m_minAge->isEnabled())
        current.minAgeMs = current.maxAgeMs = std::nullopt;
    if (!m_category->isEnabled())
        current.errorCategory.clear();
    if (!m_payload->isEnabled())
        current.payloadContains.clear();
    setFilter(current);
}
