#include "eventtablestatus.h"

#include "eventlistmodel.h"
#include "eventtablecadence.h"
#include "plainmessage.h"
#include "themecolours.h"

#include <QAbstractItemView>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QTimer>

EventTableStatus::EventTableStatus(EventListModel *model, QAbstractItemView *view, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_view(view)
    , m_count(new QLabel)
    , m_loading(new QLabel)
    , m_cadence(new QLabel)
    , m_message(new QLabel)
    , m_overlay(new QLabel(view->viewport()))
    , m_loadingDelay(new QTimer(this))
    , m_elapsedTick(new QTimer(this))
{
    m_count->setObjectName(QStringLiteral("eventCountLabel"));
    // The filter's words and the server's errors: never markup.
    for (QLabel *label : {m_count, m_message, m_overlay})
        label->setTextFormat(Qt::PlainText);
    m_loading->setObjectName(QStringLiteral("eventLoadingLabel"));
    m_loading->setStyleSheet(QStringLiteral("color: palette(mid); font-style: italic"));
    m_loading->hide();
    m_cadence->setObjectName(QStringLiteral("eventCadenceLabel"));
    m_cadence->setStyleSheet(QStringLiteral("color: palette(mid)"));
    m_cadence->hide();
    m_message->setObjectName(QStringLiteral("eventMessageLabel"));
    m_message->setStyleSheet(QStringLiteral("color: %1").arg(ThemeColours::warningText().name()));
    // One line, whatever the error's length: a wrapped message once pushed the table's bottom
    // up by a line or two under the pointer when a refresh failed. Cut to the width it has; the
    // whole message in the tooltip.
    m_message->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_message->installEventFilter(this);
    m_overlay->setObjectName(QStringLiteral("eventOverlayLabel"));
    m_overlay->setAlignment(Qt::AlignCenter);
    m_overlay->setWordWrap(true);
    m_overlay->setMargin(24);
    m_overlay->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_overlay->hide();
    m_viewport = view->viewport();
    m_viewport->installEventFilter(this);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(2, 0, 2, 0);
    layout->addWidget(m_count);
    layout->addWidget(m_loading);
    layout->addWidget(m_cadence);
    layout->addWidget(m_message, 1);

    m_loadingDelay->setSingleShot(true);
    m_loadingDelay->setInterval(LoadingDelayMs);
    connect(m_loadingDelay, &QTimer::timeout, this, [this] {
        showElapsed();
        m_loading->show();
        m_elapsedTick->start();
    });
    m_elapsedTick->setInterval(ElapsedTickMs);
    connect(m_elapsedTick, &QTimer::timeout, this, &EventTableStatus::showElapsed);
    connect(
        model->cadence(), &EventTableCadence::spacingChanged, this, &EventTableStatus::showCadence);
    connect(model, &EventListModel::loadingChanged, this, &EventTableStatus::showLoading);
    connect(model, &EventListModel::loaded, this, &EventTableStatus::update);
    connect(model, &EventListModel::matchCountChanged, this, &EventTableStatus::update);
    connect(model, &EventListModel::errorOccurred, this, &EventTableStatus::update);
    connect(model, &QAbstractItemModel::modelReset, this, &EventTableStatus::update);
    update();
    showLoading(model->isLoading()); // the window's first read starts before the page exists
}

void EventTableStatus::showLoading(bool loading)
{
    if (loading) {
        m_loadingDelay->start();
        return;
    }
    m_loadingDelay->stop();
    m_elapsedTick->stop();
    m_loading->hide();
}

void EventTableStatus::showElapsed()
{
    const qint64 ms = std::max<qint64>(0, m_model->loadingElapsedMs());
    m_loading->setText(
        tr("Searching… %1 s").arg(QLocale(QLocale::English).toString(ms / 1000.0, 'f', 1)));
}

// Said only when the table's reads are costly enough to space its refreshes beyond a few seconds:
// the tiles above keep their own interval meanwhile.
void EventTableStatus::showCadence()
{
    static constexpr int NoticeFromMs = 5000;
    const EventTableCadence *cadence = m_model->cadence();
    const int seconds = (cadence->spacingMs() + 500) / 1000;
    m_cadence->setVisible(cadence->spacingMs() >= NoticeFromMs);
    m_cadence->setText(
        tr("rows re-read every %1 s: a read takes %2 s")
            .arg(seconds)
            .arg(QLocale(QLocale::English).toString(cadence->lastCostMs() / 1000.0, 'f', 1)));
    m_cadence->setToolTip(tr("After a change, the table reads its rows again at most every %1 s, "
                             "as its reads are costly; the health tiles keep their own interval.")
                              .arg(seconds));
}

void EventTableStatus::update()
{
    const bool empty = m_model->rowCount() == 0;
    const QString error = m_model->lastError();
    m_count->setText(m_model->matchCountText());
    m_messageText = empty ? QString() : error;
    showMessage();
    QString overlay;
    if (empty && !error.isEmpty()) {
        overlay = error;
    } else if (empty && m_model->matchCount() == 0) {
        const QString filter = m_model->filter().summary();
        overlay = filter.isEmpty() ? tr("No events match: the outbox is empty.")
                                   : tr("No events match %1.").arg(filter);
    }
    m_overlay->setText(overlay);
    m_overlay->setGeometry(m_view->viewport()->rect());
    m_overlay->setVisible(!overlay.isEmpty());
}

void EventTableStatus::showMessage()
{
    const QString line = m_messageText.simplified(); // a server's multi-line error on one line
    m_message->setText(
        m_message->fontMetrics().elidedText(line, Qt::ElideRight, m_message->width()));
    m_message->setToolTip(line.isEmpty() ? QString() : m_messageText);
}

bool EventTableStatus::eventFilter(QObject *watched, QEvent *event)
{
    // Compared by address only: while the view is being destroyed its viewport still sends
    // events, and the view is no longer a scroll area to ask.
    if (watched == m_viewport && event->type() == QEvent::Resize)
        m_overlay->setGeometry(m_viewport->rect());
    else if (watched == m_message && event->type() == QEvent::Resize)
        showMessage();
    return QWidget::eventFilter(watched, event);
}
