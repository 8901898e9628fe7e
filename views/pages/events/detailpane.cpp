#include "detailpane.h"

#include "attemptlines.h"
#include "attemptmodel.h"
#include "detailreader.h"
#include "plaintext.h"
#include "redaction.h"
#include "replaylines.h"
#include "replaylogmodel.h"
#include "retrytimeline.h"
#include "statuscolorproxy.h"
#include "themecolours.h"
#include "timeformat.h"

#include <QDateTime>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace {

// The database's words in the rich-text summary: controls and invisible characters shown
// escaped (PlainText), then the HTML escaped.
QString html(const QString &text)
{
    return PlainText::escaped(text).toHtmlEscaped();
}

} // namespace

DetailPane::DetailPane(DetailReader *reader, QWidget *parent)
    : QWidget(parent)
    , m_reader(reader)
    , m_attempts(new AttemptModel(this))
    , m_replays(new ReplayLogModel(this))
    , m_replayView(new QTableView)
    , m_summary(new QLabel)
    , m_explanation(new QLabel)
    , m_revisions(new QLabel)
    , m_notes(new QLabel)
    , m_status(new QLabel)
    , m_notice(new QLabel)
    , m_attemptView(new QTableView)
    , m_timeline(new RetryTimeline)
    , m_reveal(new QPushButton(tr("Show payload")))
    , m_payload(new QPlainTextEdit)
{
    setupLayout();
    connect(m_reader, &DetailReader::detailLoaded, this, &DetailPane::showDetail);
    connect(m_reader, &DetailReader::payloadLoaded, this, &DetailPane::showPayload);
    setEventId({});
}

void DetailPane::setupLayout()
{
    setupLabels();
    setupHistoryViews();
    arrangeLayout();
}

// The texts above the history: what the event is, why, its notes and revisions, and the
// pane's own status and notice lines.
void DetailPane::setupLabels()
{
    m_summary->setObjectName(QStringLiteral("eventSummary"));
    m_summary->setTextFormat(Qt::RichText); // bold parts; the database's words escaped
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_explanation->setObjectName(QStringLiteral("eventExplanation"));
    m_explanation->setTextFormat(Qt::PlainText); // holds error messages from the database
    m_revisions->setObjectName(QStringLiteral("eventRevisions"));
    m_revisions->setTextFormat(Qt::PlainText); // operators' reasons, payload values
    m_revisions->setWordWrap(true);
    m_revisions->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_revisions->hide();
    m_notes->setObjectName(QStringLiteral("eventNotes"));
    m_notes->setTextFormat(Qt::PlainText); // operators' words: HTML stays text, never rendered
    m_notes->setWordWrap(true);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notes->hide();
    m_explanation->setWordWrap(true);
    m_explanation->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_explanation->setFrameShape(QFrame::StyledPanel);
    m_explanation->setMargin(4);
    m_explanation->setToolTip(tr("Where the event is, why, and what happens next"));
    m_explanation->hide();
    m_status->setObjectName(QStringLiteral("detailStatus"));
    m_status->setTextFormat(Qt::PlainText); // an event ID and a server's error, never markup
    m_status->setWordWrap(true);
    m_status->setStyleSheet(QStringLiteral("color: %1").arg(ThemeColours::warningText().name()));
    m_status->hide();
    m_notice->setObjectName(QStringLiteral("detailNotice"));
    m_notice->setTextFormat(Qt::PlainText); // names the event ID
    m_notice->setWordWrap(true);
    m_notice->setAutoFillBackground(true);
    m_notice->setMargin(4);
    m_notice->setBackgroundRole(QPalette::ToolTipBase);
    m_notice->setForegroundRole(QPalette::ToolTipText);
    m_notice->hide();
    m_notAvailable = new QLabel;
    m_notAvailable->setObjectName(QStringLiteral("historyNotAvailable"));
    m_notAvailable->setTextFormat(Qt::PlainText); // a profile file's name
    m_notAvailable->setWordWrap(true);
    m_notAvailable->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_notAvailable->hide();
}

// The attempts, the retry timeline and the replays in one vertical splitter; the payload.
void DetailPane::setupHistoryViews()
{
    m_attemptView->setObjectName(QStringLiteral("attemptView"));
    auto *proxy = new StatusColorProxy(this);
    proxy->setOutcomeColumn(AttemptModel::OutcomeColumn);
    m_attemptView->setModel(proxy);
    m_attemptView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_attemptView->setTabKeyNavigation(false);
    m_attemptView->setAccessibleName(tr("Attempts of the selected event"));
    m_attemptView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_attemptView->verticalHeader()->hide();
    // What happened first, where a laptop's narrow pane shows it without a horizontal scroll:
    // outcome and consumer result beside the attempt's number, then the message with the
    // worker and times on a line of their own (AttemptLines), wrapped in the widest column.
    auto *lines = new AttemptLines(this);
    lines->setSourceModel(m_attempts);
    proxy->setSourceModel(lines);
    m_attemptView->setWordWrap(true);
    m_attemptView->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_attemptView->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    const QList<int> order = {AttemptModel::AttemptColumn, AttemptModel::OutcomeColumn,
        AttemptModel::ConsumerResultColumn, AttemptModel::ErrorCategoryColumn,
        AttemptModel::ErrorColumn};
    QHeaderView *attemptHeader = m_attemptView->horizontalHeader();
    for (int visual = 0; visual < int(order.size()); ++visual)
        attemptHeader->moveSection(attemptHeader->visualIndex(order.at(visual)), visual);
    for (const int column : {AttemptModel::WorkerColumn, AttemptModel::ClaimedColumn,
             AttemptModel::FinishedColumn, AttemptModel::NextAttemptColumn})
        m_attemptView->setColumnHidden(column, true); // on the message's second line
    attemptHeader->setSectionResizeMode(QHeaderView::ResizeToContents);
    attemptHeader->setSectionResizeMode(AttemptModel::ErrorColumn, QHeaderView::Stretch);
    m_timeline->setModel(m_attempts);
    m_timeline->setMinimumHeight(180);
    m_payload->setObjectName(QStringLiteral("payloadView"));
    m_payload->setAccessibleName(tr("Payload"));
    m_payload->setReadOnly(true);
    m_payload->setMaximumHeight(90);
    m_reveal->setObjectName(QStringLiteral("revealPayload"));
    connect(m_reveal, &QPushButton::clicked, this, &DetailPane::revealPayload);

    setupReplayView();
    auto *splitter = m_history = new QSplitter(Qt::Vertical);
    splitter->addWidget(m_attemptView);
    splitter->addWidget(m_timeline);
    splitter->addWidget(m_replayView);
    // The attempts' rows grow with their wrapped lines; the timeline takes most of the rest.
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 3);
    m_attemptView->setMinimumHeight(90);
}

// One event's replays, below its attempts and timeline: shown only when it has some.
void DetailPane::setupReplayView()
{
    m_replayView->setObjectName(QStringLiteral("eventReplayView"));
    auto *replayLines = new ReplayLines(this);
    replayLines->setSourceModel(m_replays);
    m_replayView->setModel(replayLines);
    m_replayView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_replayView->setTabKeyNavigation(false);
    m_replayView->setAccessibleName(tr("Replays of the selected event"));
    m_replayView->verticalHeader()->hide();
    // One event's replays: its ID is the pane's, the budget and failures on the reason's second
    // line (ReplayLines). The short columns take their contents' width and the reason the rest,
    // wrapped, so that a long reason never scrolls the pane sideways (as an attempt's message).
    for (const int column : {ReplayLogModel::EventColumn, ReplayLogModel::BudgetColumn,
             ReplayLogModel::FailuresBeforeColumn})
        m_replayView->setColumnHidden(column, true);
    m_replayView->setWordWrap(true);
    m_replayView->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_replayView->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    QHeaderView *replayHeader = m_replayView->horizontalHeader();
    replayHeader->setSectionResizeMode(QHeaderView::ResizeToContents);
    replayHeader->setSectionResizeMode(ReplayLogModel::ReasonColumn, QHeaderView::Stretch);
    m_replayView->setMaximumHeight(90);
    m_replayView->hide();
}

void DetailPane::arrangeLayout()
{
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_notice);
    layout->addWidget(m_summary);
    layout->addWidget(m_status);
    layout->addWidget(m_explanation);
    layout->addWidget(m_notes);
    m_noteButtons = new QHBoxLayout;
    m_noteButtons->addStretch(1);
    layout->addLayout(m_noteButtons);
    layout->addWidget(m_revisions);
    layout->addWidget(m_history, 1);
    layout->addWidget(m_notAvailable, 1);
    auto *payloadRow = new QHBoxLayout;
    payloadRow->addWidget(new QLabel(tr("Payload")));
    payloadRow->addStretch(1);
    payloadRow->addWidget(m_reveal);
    layout->addLayout(payloadRow);
    layout->addWidget(m_payload);
}

void DetailPane::setProfile(const OutboxProfile &profile)
{
    m_native = profile.isNative();
    m_attemptList = profile.hasAttemptList();
    m_profileName = profile.name();
    m_history->setVisible(m_attemptList);
    showHistoryNote(false);
    refresh();
}

// What the pane cannot show, and a history cut to its newest attempts.
void DetailPane::showHistoryNote(bool cut)
{
    QStringList lines;
    if (cut)
        lines << tr("Only the newest %1 attempts are shown: the event has more.")
                     .arg(AttemptMapping::ReadLimit);
    if (!m_attemptList)
        lines << tr("Attempts, retry timeline and replay log: not available for %1: "
                    "the schema keeps no attempt history and no replay log.")
                     .arg(m_profileName);
    else if (!m_native)
        lines << tr("Replay log: not available for %1: the schema keeps no replay log.")
                     .arg(m_profileName);
    m_notAvailable->setText(lines.join(u'\n'));
    m_notAvailable->setVisible(!lines.isEmpty());
}

void DetailPane::setEventId(const QString &eventId)
{
    const bool changed = eventId != m_eventId;
    m_eventId = eventId;
    if (changed) {
        setNotice({});
        m_payload->setPlainText(
            eventId.isEmpty() ? QString() : tr("Hidden: payloads can hold personal data."));
        m_reveal->setEnabled(!eventId.isEmpty());
    }
    refresh();
}

void DetailPane::refresh()
{
    if (m_eventId.isEmpty()) {
        m_loading = false;
        setStatus({});
        m_shownId.clear();
        m_summary->setText(tr("Select an event to see its attempts."));
        m_explanation->clear();
        m_explanation->hide();
        m_attempts->setRows({}, {});
        m_replays->clear();
        m_replayView->hide();
        m_revisions->clear();
        m_revisions->hide();
        m_notes->clear();
        m_notes->hide();
        return;
    }
    // What is shown stays until the answer comes; the status line says a read is under way
    // when another event was selected (a periodic re-read of the same one stays quiet).
    m_loading = true;
    if (m_status->isHidden() && m_shownId != m_eventId)
        setStatus(tr("Loading…"));
    m_reader->requestDetail(m_eventId, now());
}

qint64 DetailPane::now() const
{
    return m_clock ? m_clock() : QDateTime::currentMSecsSinceEpoch();
}

void DetailPane::showDetail(const EventDetail &detail)
{
    if (detail.eventId != m_eventId)
        return; // the answer for an event no longer selected
    m_loading = false;
    if (detail.failed()) {
        // The event may well still exist: keep the last values and say the read failed.
        setStatus(tr("Could not read %1 (showing the last values read): %2")
                      .arg(detail.eventId, detail.error));
        return;
    }
    setStatus({});
    m_shownId = detail.eventId;
    showSummary(detail);
    showExplanation(detail);
    showNotes(detail);
    if (!m_attemptList)
        return;
    const bool leaseRunning = !detail.leaseUntil.isNull() && detail.leaseUntil.toLongLong() > now();
    m_attempts->setRows(detail.eventId, detail.attempts, leaseRunning);
    hideEmptyConsumerColumn();
    showHistoryNote(detail.attemptsCut);
    if (!m_native)
        return;
    m_replays->setRows(detail.eventId, detail.replays);
    m_replayView->setVisible(m_replays->rowCount() > 0);
    m_revisions->setText(detail.revisions.isEmpty()
            ? QString()
            : tr("Revisions (edit and replay):") + u'\n' + detail.revisions.join(u'\n'));
    m_revisions->setVisible(!detail.revisions.isEmpty());
}

// The consumer's result (DUPLICATE, ...) only where some attempt has one: a narrow pane gives
// the room to the message otherwise.
void DetailPane::hideEmptyConsumerColumn()
{
    bool told = false;
    for (int row = 0; row < m_attempts->rowCount() && !told; ++row)
        told = !m_attempts->index(row, AttemptModel::ConsumerResultColumn)
                    .data()
                    .toString()
                    .isEmpty();
    m_attemptView->setColumnHidden(AttemptModel::ConsumerResultColumn, !told);
}

void DetailPane::showNotes(const EventDetail &detail)
{
    QStringList lines;
    for (const OperatorNote &note : detail.notes) {
        QString line = TimeFormat::time(note.createdAt) + QStringLiteral(" · ") + note.operatorName;
        if (!note.marker.isEmpty())
            line += QStringLiteral(" · ") + note.marker.toUpper();
        if (!note.errorGroup.isEmpty())
            line += tr(" · on its error group");
        lines << line + QStringLiteral(": ") + note.text;
    }
    if (!detail.notesError.isEmpty())
        lines << tr("Could not read the notes: %1").arg(detail.notesError);
    m_notes->setText(lines.isEmpty() ? QString() : tr("Notes:") + u'\n' + lines.join(u'\n'));
    m_notes->setVisible(!lines.isEmpty());
}

QString DetailPane::notesText() const
{
    return m_notes->isVisibleTo(this) ? m_notes->text() : QString();
}

void DetailPane::setNoteActions(QAction *add, QAction *clear)
{
    for (QAction *action : {add, clear}) {
        auto *button = new QToolButton;
        button->setDefaultAction(action);
        button->setObjectName(action->objectName() + QStringLiteral("Button"));
        m_noteButtons->insertWidget(m_noteButtons->count() - 1, button);
    }
}

QString DetailPane::revisionsText() const
{
    return m_revisions->isVisibleTo(this) ? m_revisions->text() : QString();
}

void DetailPane::showSummary(const EventDetail &detail)
{
    if (!detail.found) {
        m_summary->setText(tr("%1: no longer in the outbox.").arg(html(detail.eventId)));
        return;
    }
    const EventSummary &row = detail.summary;
    QString text = tr("<b>%1</b> — %2 for %3 %4 — <b>%5</b>, %n failure(s)", nullptr, row.failures)
                       .arg(html(detail.eventId), html(row.eventType), html(row.aggregateType),
                           html(row.aggregateId), html(row.status));
    // A delivered event's last error is an earlier attempt's, not why it is where it is: said
    // so, never as the event's error. (A resolved event's is why it was parked: kept.)
    const bool settled = row.status == QLatin1String("DELIVERED");
    if (!row.lastErrorCategory.isNull() || (!m_native && !row.lastError.isNull()))
        text += (settled ? tr("<br>Error of an earlier attempt: %1 — %2")
                         : tr("<br>Last error: %1 — %2"))
                    .arg(html(row.lastErrorCategory.toString()), html(row.lastError.toString()));
    if (detail.resolution)
        text += tr("<br>Resolved by %1 at %2: %3")
                    .arg(html(detail.resolution->operatorName),
                        TimeFormat::time(detail.resolution->resolvedAt).toHtmlEscaped(),
                        html(detail.resolution->reason));
    m_summary->setText(text);
}

void DetailPane::showExplanation(const EventDetail &detail)
{
    QString text = detail.explanation;
    if (text.isEmpty() && !detail.explanationError.isEmpty())
        text = tr("No explanation: %1").arg(detail.explanationError);
    // It quotes the last error: its invisible characters shown escaped, its lines kept.
    QStringList lines = text.split(u'\n');
    for (QString &line : lines)
        line = PlainText::escaped(line);
    m_explanation->setText(lines.join(u'\n'));
    m_explanation->setVisible(detail.found && !text.isEmpty());
}

void DetailPane::revealPayload()
{
    if (m_eventId.isEmpty())
        return;
    // Values of sensitive keys stay masked even now (settings key redaction/sensitiveKeys).
    m_payload->setPlainText(tr("Loading the payload…"));
    m_reader->requestPayload(m_eventId, Redaction::sensitiveKeys(QSettings()));
}

void DetailPane::showPayload(const EventPayload &payload)
{
    if (payload.eventId != m_eventId)
        return;
    if (!payload.error.isEmpty())
        m_payload->setPlainText(tr("Could not read the payload: %1").arg(payload.error));
    else if (!payload.found)
        m_payload->setPlainText(tr("%1: no longer in the outbox.").arg(payload.eventId));
    else
        m_payload->setPlainText(payload.text);
}

void DetailPane::setNotice(const QString &text)
{
    m_notice->setText(text);
    m_notice->setVisible(!text.isEmpty());
}

QString DetailPane::noticeText() const
{
    return m_notice->text();
}

void DetailPane::setStatus(const QString &text)
{
    m_status->setText(text);
    m_status->setVisible(!text.isEmpty());
}

QString DetailPane::payloadText() const
{
    return m_payload->toPlainText();
}

QString DetailPane::summaryText() const
{
    return m_summary->text();
}

QString DetailPane::explanationText() const
{
    return m_explanation->isHidden() ? QString() : m_explanation->text();
}

QString DetailPane::statusText() const
{
    return m_status->text();
}
