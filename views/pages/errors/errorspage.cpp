#include "errorspage.h"

#include "chartstyle.h"
#include "errorgroupmodel.h"
#include "fulltextdelegate.h"
#include "numbertext.h"
#include "statuscolorproxy.h"
#include "themecolours.h"
#include "triagereader.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHorizontalStackedBarSeries>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStyle>
#include <QTableView>
#include <QVBarModelMapper>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <utility>

namespace {

// The group's rank, as the table's row numbers show it: a signature never fits beside a bar
// (at a laptop's width every label read "…"); the table below names it whole. Distinct, so the
// axis never drops a label as a repeat.
QString axisLabel(int row)
{
    return QString::number(row + 1);
}

// The chart's rows: the ChartBars largest groups, smallest first, because a horizontal bar
// series draws its first bar at the bottom and the largest group belongs on top.
class LargestOnTop : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &) const override
    {
        return sourceRow < ErrorsPage::ChartBars;
    }
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override
    {
        return left.row() > right.row();
    }
};

} // namespace

ErrorsPage::ErrorsPage(const DatabaseUrl &url, const std::optional<OutboxProfile> &profile,
    Clock clock, QWidget *parent)
    : QWidget(parent)
    , m_reader(new TriageReader(url, this))
    , m_clock(std::move(clock))
    , m_model(new ErrorGroupModel(this))
    , m_status(new QLabel)
    , m_view(new QTableView)
{
    setObjectName(QStringLiteral("errorsPanel"));
    if (profile && !profile->isNative()) {
        m_reader->setProfile(*profile);
        if (!profile->isAvailable(OutboxProfile::Column::LastError))
            m_unavailable = tr("Error groups: not available for %1: the schema keeps no last "
                               "error, so failures cannot be grouped.")
                                .arg(profile->name());
    }
    m_status->setObjectName(QStringLiteral("errorsStatus"));
    m_status->setTextFormat(Qt::PlainText); // a database's words, never markup
    m_status->setWordWrap(true);
    setupTable();
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_status);
    layout->addWidget(setupChart());
    layout->addWidget(m_view, 1);
    layout->addLayout(setupButtons());

    connect(m_reader, &TriageReader::errorGroupsLoaded, this, &ErrorsPage::applyGroups);
    connect(m_reader, &TriageReader::errorGroupsFailed, this, &ErrorsPage::failGroups);
    connect(m_reader, &TriageReader::deadEventIdsLoaded, this, &ErrorsPage::replayIdsLoaded);
    connect(m_reader, &TriageReader::deadEventIdsFailed, this, &ErrorsPage::replayIdsFailed);
    if (!m_unavailable.isEmpty()) {
        setStatus(m_unavailable);
        m_view->setEnabled(false);
    } else {
        setStatus(tr("Loading…"));
    }
    updateButtons();
}

QWidget *ErrorsPage::setupChart()
{
    QChart *chart = ChartStyle::newChart(tr("Largest error groups (events)"));
    m_bars = new QHorizontalStackedBarSeries;
    chart->addSeries(m_bars);
    m_groupAxis = new QBarCategoryAxis;
    // Qt Charts cuts a label to "..." when it lays the axis out before the categories arrive;
    // the labels are short row numbers, so they are drawn whole.
    m_groupAxis->setTruncateLabels(false);
    m_countAxis = ChartStyle::countAxis();
    ChartStyle::addAxis(chart, m_groupAxis, Qt::AlignLeft);
    ChartStyle::addAxis(chart, m_countAxis, Qt::AlignBottom);
    m_bars->attachAxis(m_groupAxis);
    m_bars->attachAxis(m_countAxis);
    // The mapper makes new bar sets on every model reset, named by the model's headers.
    connect(m_bars, &QAbstractBarSeries::barsetsAdded, this, &ErrorsPage::colourBars);
    m_chartRows = new LargestOnTop(this);
    m_chartRows->setSourceModel(m_model);
    m_chartRows->sort(0);
    auto *mapper = new QVBarModelMapper(this);
    mapper->setFirstBarSetColumn(ErrorGroupModel::DeadColumn);
    mapper->setLastBarSetColumn(ErrorGroupModel::RetryingColumn);
    mapper->setSeries(m_bars);
    mapper->setModel(m_chartRows);
    connect(m_chartRows, &QAbstractItemModel::modelReset, this, &ErrorsPage::updateChartAxes);
    updateChartAxes();
    auto *view = new QChartView(chart);
    view->setObjectName(QStringLiteral("errorGroupsChart"));
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(160);
    view->setMaximumHeight(320);
    describeChart();
    return view;
}

void ErrorsPage::setupTable()
{
    m_view->setObjectName(QStringLiteral("errorGroupsView"));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setTabKeyNavigation(false); // Tab leaves the table; arrows move in it
    m_view->setAccessibleName(tr("Error groups"));
    // The signature leads: it takes the room the others leave and wraps onto more lines when
    // even that is short, the row growing to show it whole (a few rows: the groups, not the
    // events). The other columns have widths fixed from their header and the widest value they
    // can show, the same on every read (as wide as their text, they moved with each refresh and
    // the event types took 660 px of a laptop's width from the signature).
    m_view->setWordWrap(true);
    m_view->setTextElideMode(Qt::ElideRight); // the types and the note: whole in a tip
    m_view->setItemDelegate(new FullTextDelegate(m_view)); // cut text: whole in a tip
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    QHeaderView *header = m_view->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setSectionResizeMode(ErrorGroupModel::SignatureColumn, QHeaderView::Stretch);
    fixColumnWidths();
    // An operator's marker and note beside the counts, where a laptop's width still shows it.
    header->moveSection(header->visualIndex(ErrorGroupModel::NoteColumn),
        header->visualIndex(ErrorGroupModel::CategoryColumn));
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &ErrorsPage::onCurrentRowChanged);
    // Enter or a double click shows the group's events; moving the selection filters nothing.
    connect(m_view, &QAbstractItemView::activated, this, &ErrorsPage::showSelectedEvents);
}

// Each column but the signature as wide as its header or the widest value it shows, whatever
// this read holds: counts up to 999,999, the category names, ages in any unit; the event types
// and the note get a share, cut beyond with their whole text in a tip.
void ErrorsPage::fixColumnWidths()
{
    const QFontMetrics metrics(m_view->font());
    const auto widest = [&metrics](const QStringList &texts) {
        int width = 0;
        for (const QString &text : texts)
            width = std::max(width, metrics.horizontalAdvance(text));
        return width;
    };
    const auto header
        = [this](int column) { return m_model->headerData(column, Qt::Horizontal).toString(); };
    const int padding = 2 * m_view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin) + 12;
    const QStringList counts = {QLocale().toString(999999)};
    const QStringList ages = {QStringLiteral("999 ms ago"), QStringLiteral("99.9 s ago"),
        QStringLiteral("59 min ago"), QStringLiteral("9999 units ago"), tr("n/a")};
    const QStringList categories
        = {QStringLiteral("TRANSIENT"), QStringLiteral("PERMANENT"), tr("none")};
    const QList<std::pair<int, QStringList>> fixed = {{ErrorGroupModel::EventsColumn, counts},
        {ErrorGroupModel::DeadColumn, counts}, {ErrorGroupModel::RetryingColumn, counts},
        {ErrorGroupModel::CategoryColumn, categories}, {ErrorGroupModel::FirstSeenColumn, ages},
        {ErrorGroupModel::LastSeenColumn, ages},
        {ErrorGroupModel::TypesColumn, {QStringLiteral("OrderConfirmed 999")}},
        {ErrorGroupModel::NoteColumn, {QStringLiteral("ON-HOLD · waiting")}}};
    for (const auto &[column, texts] : fixed)
        m_view->horizontalHeader()->resizeSection(
            column, widest(texts + QStringList {header(column)}) + padding);
}

void ErrorsPage::showSelectedEvents()
{
    if (!m_selected.isEmpty())
        emit filterRequested(filterFor(m_selected));
}

QHBoxLayout *ErrorsPage::setupButtons()
{
    m_replay = new QPushButton(tr("&Replay group…"));
    m_replay->setObjectName(QStringLiteral("replayGroupButton"));
    connect(m_replay, &QPushButton::clicked, this, &ErrorsPage::replayGroup);
    m_buttons = new QHBoxLayout;
    m_buttons->addWidget(m_replay);
    m_buttons->addStretch(1);
    return m_buttons;
}

void ErrorsPage::addGroupButton(QAbstractButton *button)
{
    m_buttons->insertWidget(m_buttons->count() - 1, button); // before the stretch
}

void ErrorsPage::setGroupWrites(GroupWrites writes)
{
    m_writes = std::move(writes);
    if (m_writes.resolve && !m_resolveButton) {
        m_resolveButton = new QPushButton(tr("Re&solve group…"));
        m_resolveButton->setObjectName(QStringLiteral("resolveGroupButton"));
        connect(m_resolveButton, &QPushButton::clicked, this,
            [this] { actOnGroup(GroupAction::Resolve); });
        addGroupButton(m_resolveButton);
    }
    updateButtons();
}

bool ErrorsPage::canReplay() const
{
    return m_writes.replay && !m_writes.replayBusy() && m_writes.replayRefusal().isEmpty();
}

EventFilter ErrorsPage::filterFor(const QString &signature)
{
    EventFilter filter;
    filter.errorSignature = signature;
    return filter;
}

std::optional<ErrorGroup> ErrorsPage::selectedGroup() const
{
    const int row = m_model->rowOfSignature(m_selected);
    if (m_selected.isEmpty() || row < 0)
        return std::nullopt;
    return m_model->groups().at(row);
}

QString ErrorsPage::statusText() const
{
    return m_status->text();
}

bool ErrorsPage::isLoading() const
{
    return m_reader->isLoadingErrorGroups();
}

void ErrorsPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refresh();
}

void ErrorsPage::refresh()
{
    if (!isVisible() || !m_unavailable.isEmpty())
        return; // a hidden tab reads nothing; showing it reads
    m_reader->requestErrorGroups();
    showLoading();
}

// The last summary stays readable while a read runs, so a refresh does not make it flicker.
void ErrorsPage::showLoading()
{
    setStatus(m_summary.isEmpty() ? tr("Loading…") : m_summary + tr("  Loading…"));
}

void ErrorsPage::setStatus(const QString &text, bool error)
{
    m_status->setText(text);
    m_status->setStyleSheet(
        error ? QStringLiteral("color: %1").arg(ThemeColours::errorText().name()) : QString());
}

void ErrorsPage::applyGroups(const QList<ErrorGroup> &groups)
{
    const QString selected = m_selected;
    m_model->setGroups(groups, m_clock ? m_clock() : 0);
    selectSignature(selected);
    qint64 events = 0;
    qint64 dead = 0;
    for (const ErrorGroup &group : groups) {
        events += group.count;
        dead += group.dead;
    }
    m_summary = groups.isEmpty()
        ? tr("No failed events: nothing is retrying after a failure or DEAD.")
        : tr("%1, %2 failed (%3 DEAD)")
              .arg(NumberText::counted(groups.size(), tr("error group"), tr("error groups")),
                  NumberText::counted(events, tr("event"), tr("events")), QString::number(dead));
    setStatus(m_summary);
    if (isLoading())
        showLoading(); // one more read was asked for while this one ran
    updateButtons();
    emit groupChanged();
}

void ErrorsPage::failGroups(const QString &error)
{
    setStatus(tr("Could not read the error groups: %1").arg(error), true); // rows kept
}

void ErrorsPage::selectSignature(const QString &signature)
{
    const int row = m_model->rowOfSignature(signature);
    m_restoring = true;
    if (row >= 0)
        m_view->setCurrentIndex(m_model->index(row, 0));
    else
        m_view->selectionModel()->clear();
    m_restoring = false;
    m_selected = row >= 0 ? signature : QString();
    highlightSelectedBar();
}

void ErrorsPage::onCurrentRowChanged()
{
    if (m_restoring)
        return;
    const QModelIndex current = m_view->currentIndex();
    m_selected
        = current.isValid() ? current.data(ErrorGroupModel::SignatureRole).toString() : QString();
    highlightSelectedBar();
    updateButtons();
    emit groupChanged();
}

void ErrorsPage::actOnGroup(GroupAction action)
{
    const std::optional<ErrorGroup> group = selectedGroup();
    if (!group || group->dead == 0 || !m_findingIds.isEmpty())
        return;
    if (action == GroupAction::Replay ? !canReplay()
                                      : !m_writes.resolve || !m_writes.resolveRefusal().isEmpty())
        return;
    // Every DEAD event of the group, not only the rows on screen: found on the worker.
    m_findingIds = group->signature;
    m_findingFor = action;
    (action == GroupAction::Replay ? m_replay : m_resolveButton)
        ->setText(tr("Finding the DEAD events…"));
    updateButtons();
    m_reader->requestDeadEventIds(group->signature);
}

void ErrorsPage::replayIdsLoaded(const QString &signature, const QStringList &ids)
{
    if (signature != std::exchange(m_findingIds, QString()))
        return;
    resetButtonTexts();
    updateButtons();
    const bool replay = m_findingFor == GroupAction::Replay;
    if (ids.isEmpty()) {
        setStatus(replay ? tr("No DEAD event has this error any more: nothing to replay.")
                         : tr("No DEAD event has this error any more: nothing to resolve."));
        return;
    }
    if (replay)
        m_writes.replay(signature, ids); // the dialog with its plan, then the replay
    else
        m_writes.resolve(ids); // the dialog (who and why), then the resolve
}

void ErrorsPage::resetButtonTexts()
{
    m_replay->setText(tr("&Replay group…"));
    if (m_resolveButton)
        m_resolveButton->setText(tr("Re&solve group…"));
}

void ErrorsPage::replayIdsFailed(const QString &signature, const QString &error)
{
    if (signature != std::exchange(m_findingIds, QString()))
        return;
    resetButtonTexts();
    updateButtons();
    setStatus(tr("Could not find the group's DEAD events: %1").arg(error), true);
}

void ErrorsPage::updateButtons()
{
    const std::optional<ErrorGroup> group = selectedGroup();
    const QString refusal = m_writes.replay ? m_writes.replayRefusal() : QString();
    QString why;
    if (!m_unavailable.isEmpty())
        why = m_unavailable;
    else if (!refusal.isEmpty())
        why = refusal;
    else if (!group)
        why = tr("Select an error group first");
    else if (group->dead == 0)
        why = tr("None of this group's events is DEAD");
    const bool enabled = why.isEmpty() && canReplay() && m_findingIds.isEmpty();
    m_replay->setEnabled(enabled);
    m_replay->setToolTip(why.isEmpty()
            ? tr("Replay the %1 of this group; you confirm first, with a preview")
                  .arg(NumberText::counted(group->dead, tr("DEAD event"), tr("DEAD events")))
            : why);
    if (!m_resolveButton)
        return;
    QString whyNot = m_unavailable;
    if (whyNot.isEmpty())
        whyNot = m_writes.resolveRefusal();
    if (whyNot.isEmpty() && !group)
        whyNot = tr("Select an error group first");
    else if (whyNot.isEmpty() && group->dead == 0)
        whyNot = tr("None of this group's events is DEAD");
    m_resolveButton->setEnabled(
        whyNot.isEmpty() && !m_writes.resolveBusy() && m_findingIds.isEmpty());
    m_resolveButton->setToolTip(whyNot.isEmpty()
            ? tr("Close the %1 of this group without delivery; you say who and why first")
                  .arg(NumberText::counted(group->dead, tr("DEAD event"), tr("DEAD events")))
            : whyNot);
}

void ErrorsPage::updateChartAxes()
{
    QStringList labels;
    qreal max = 0;
    for (int row = 0; row < m_chartRows->rowCount(); ++row) {
        const int source = m_chartRows->mapToSource(m_chartRows->index(row, 0)).row();
        const ErrorGroup &group = m_model->groups().at(source);
        labels << axisLabel(source);
        max = std::max<qreal>(max, qreal(group.count));
    }
    m_groupAxis->setCategories(labels);
    ChartStyle::setCountRange(m_countAxis, max);
    describeChart();
}

// The chart's bars in words, largest first, for a screen reader.
void ErrorsPage::describeChart()
{
    auto *view = findChild<QChartView *>(QStringLiteral("errorGroupsChart"));
    if (!view)
        return;
    QStringList groups;
    for (int row = 0; row < m_chartRows->rowCount(); ++row) {
        const ErrorGroup &group
            = m_model->groups().at(m_chartRows->mapToSource(m_chartRows->index(row, 0)).row());
        groups << tr("%1: %2 (%3 DEAD)")
                      .arg(group.signature,
                          NumberText::counted(group.count, tr("event"), tr("events")),
                          QLocale().toString(group.dead));
    }
    view->setAccessibleName(tr("Largest error groups"));
    view->setAccessibleDescription(groups.isEmpty()
            ? tr("Largest error groups: none.")
            : tr("Largest error groups: %1.").arg(groups.join(QStringLiteral("; "))));
}

void ErrorsPage::colourBars()
{
    // In column order: DEAD, then retrying.
    const QList<QBarSet *> sets = m_bars->barSets();
    if (!sets.isEmpty())
        sets.first()->setColor(StatusColorProxy::colorFor(QStringLiteral("DEAD")));
    if (sets.size() > 1)
        sets.at(1)->setColor(StatusColorProxy::colorFor(QStringLiteral("RETRY")));
    for (QBarSet *set : sets) {
        set->setLabelColor(ChartStyle::textColour());
        // The selected group's bar, darker (lighter on a dark theme) than the others.
        set->setSelectedColor(
            ThemeColours::isDark() ? set->color().lighter(160) : set->color().darker(170));
    }
    highlightSelectedBar();
}

// The selected group's bar stands out in the chart, as its row does in the table.
void ErrorsPage::highlightSelectedBar()
{
    const int row = m_selected.isEmpty() ? -1 : m_model->rowOfSignature(m_selected);
    const int bar = row < 0 ? -1 : m_chartRows->mapFromSource(m_model->index(row, 0)).row();
    for (QBarSet *set : m_bars->barSets()) {
        set->deselectAllBars();
        if (bar >= 0)
            set->selectBar(bar);
    }
}

int ErrorsPage::selectedBar() const
{
    const QList<QBarSet *> sets = m_bars->barSets();
    if (sets.isEmpty() || sets.first()->selectedBars().isEmpty())
        return -1;
    return sets.first()->selectedBars().constFirst();
}

QWidget *ErrorsPage::focusTarget() const
{
    return m_view;
}

// Read again after each snapshot that changed the figures (only while shown: refresh()).
void ErrorsPage::outboxChanged(const HealthSnapshot &, bool figuresChanged)
{
    if (figuresChanged)
        refresh();
}
