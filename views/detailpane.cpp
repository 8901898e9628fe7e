#include "detailpane.h"

#include "attemptmodel.h"
#include "readonlytransaction.h"
#include "redaction.h"
#include "replaylogmodel.h"
#include "retrytimeline.h"
#include "statuscolorproxy.h"

#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QSqlQuery>
#include <QTableView>
#include <QVBoxLayout>

DetailPane::DetailPane(const QSqlDatabase &db, QWidget *parent)
    : QWidget(parent)
    , m_db(db)
    , m_attempts(new AttemptModel(this))
    , m_replays(new ReplayLogModel(this))
    , m_replayView(new QTableView)
    , m_summary(new QLabel)
    , m_attemptView(new QTableView)
    , m_timeline(new RetryTimeline)
    , m_reveal(new QPushButton(tr("Show payload")))
    , m_payload(new QPlainTextEdit)
{
    setupLayout();
    setEventId({});
}

void DetailPane::setupLayout()
{
    m_summary->setObjectName(QStringLiteral("eventSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_attemptView->setObjectName(QStringLiteral("attemptView"));
    auto *proxy = new StatusColorProxy(this);
    proxy->setSourceModel(m_attempts);
    proxy->setOutcomeColumn(AttemptModel::OutcomeColumn);
    m_attemptView->setModel(proxy);
    m_attemptView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_attemptView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_attemptView->verticalHeader()->hide();
    m_attemptView->horizontalHeader()->setStretchLastSection(true);
    m_timeline->setModel(m_attempts);
    m_timeline->setMinimumHeight(180);
    m_payload->setObjectName(QStringLiteral("payloadView"));
    m_payload->setReadOnly(true);
    m_payload->setMaximumHeight(90);
    m_reveal->setObjectName(QStringLiteral("revealPayload"));
    connect(m_reveal, &QPushButton::clicked, this, &DetailPane::revealPayload);

    m_replayView->setObjectName(QStringLiteral("eventReplayView"));
    m_replayView->setModel(m_replays);
    m_replayView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_replayView->verticalHeader()->hide();
    m_replayView->horizontalHeader()->setStretchLastSection(true);
    m_replayView->setMaximumHeight(90);
    auto *splitter = m_history = new QSplitter(Qt::Vertical);
    splitter->addWidget(m_attemptView);
    splitter->addWidget(m_timeline);
    splitter->addWidget(m_replayView);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    m_attemptView->setMinimumHeight(110);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(splitter, 1);
    m_notAvailable = new QLabel;
    m_notAvailable->setObjectName(QStringLiteral("historyNotAvailable"));
    m_notAvailable->setWordWrap(true);
    m_notAvailable->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_notAvailable->hide();
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
    m_source = profile.source(OutboxProfile::engineOf(m_db));
    m_history->setVisible(m_native);
    m_notAvailable->setVisible(!m_native);
    m_notAvailable->setText(tr("Attempts, retry timeline and replay log: not available for %1: "
                               "the schema keeps no attempt history and no replay log.")
                                .arg(profile.name()));
    refresh();
}

void DetailPane::setEventId(const QString &eventId)
{
    const bool changed = eventId != m_eventId;
    m_eventId = eventId;
    if (changed) {
        m_payload->setPlainText(
            eventId.isEmpty() ? QString() : tr("Hidden: payloads can hold personal data."));
        m_reveal->setEnabled(!eventId.isEmpty());
    }
    refresh();
}

void DetailPane::refresh()
{
    if (!m_native) {
        loadSummary();
        return;
    }
    m_attempts->setEvent(m_db, m_eventId);
    m_attemptView->resizeColumnsToContents();
    if (m_eventId.isEmpty())
        m_replays->clear();
    else
        m_replays->load(m_db, m_eventId);
    m_replayView->setVisible(m_replays->rowCount() > 0);
    loadSummary();
}

void DetailPane::loadSummary()
{
    if (m_eventId.isEmpty()) {
        m_summary->setText(tr("Select an event to see its attempts."));
        return;
    }
    ReadOnlyTransaction transaction(m_db); // m_source may be a profile's SQL
    QSqlQuery *prepared = transaction.prepare(
        QStringLiteral("SELECT event_type, aggregate_type, aggregate_id, status, failures,"
                       " last_error_category, last_error FROM ")
        + m_source + QStringLiteral(" WHERE event_id = :id"));
    if (prepared)
        prepared->bindValue(QStringLiteral(":id"), m_eventId);
    if (!prepared || !prepared->exec() || !prepared->next()) {
        m_summary->setText(tr("%1: no longer in the outbox.").arg(m_eventId));
        return;
    }
    const QSqlQuery &query = *prepared;
    QString text
        = tr("<b>%1</b> — %2 for %3 %4 — <b>%5</b>, %n failure(s)", nullptr, query.value(4).toInt())
              .arg(m_eventId.toHtmlEscaped(), query.value(0).toString().toHtmlEscaped(),
                  query.value(1).toString().toHtmlEscaped(),
                  query.value(2).toString().toHtmlEscaped(), query.value(3).toString());
    if (!query.value(5).isNull() || (!m_native && !query.value(6).isNull()))
        text += tr("<br>Last error: %1 — %2")
                    .arg(query.value(5).toString(), query.value(6).toString().toHtmlEscaped());
    m_summary->setText(text);
}

void DetailPane::revealPayload()
{
    // Only this one event's payload is read, and only on request: list queries never read it.
    ReadOnlyTransaction transaction(m_db); // m_source may be a profile's SQL
    QSqlQuery *query = transaction.prepare(QStringLiteral("SELECT payload FROM ") + m_source
        + QStringLiteral(" WHERE event_id = :id"));
    if (!query)
        return;
    query->bindValue(QStringLiteral(":id"), m_eventId);
    if (!query->exec() || !query->next())
        return;
    // Values of sensitive keys stay masked even now (settings key redaction/sensitiveKeys).
    const QStringList keys = Redaction::sensitiveKeys(QSettings());
    const QString redacted = Redaction::redactJson(query->value(0).toString(), keys);
    const QJsonDocument json = QJsonDocument::fromJson(redacted.toUtf8());
    m_payload->setPlainText(
        json.isNull() ? redacted : QString::fromUtf8(json.toJson(QJsonDocument::Indented)));
}

QString DetailPane::payloadText() const
{
    return m_payload->toPlainText();
}
