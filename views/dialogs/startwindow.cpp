#include "startwindow.h"

#include "detailsbutton.h"
#include "failurecause.h"
#include "healthmonitor.h"
#include "plaintooltips.h"

#include <QApplication>
#include <QDateTime>
#include <QHBoxLayout>
#include <QHideEvent>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QVBoxLayout>
#include <cmath>

StartWindow::StartWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_title(new QLabel)
    , m_message(new QLabel)
    , m_retryLine(new QLabel)
    , m_details(new DetailsButton)
    , m_retryButton(new QPushButton(tr("Retry")))
    , m_connect(new QPushButton(tr("Connect…")))
    , m_demo(new QPushButton(tr("Open the demo")))
{
    PlainToolTips::install(); // tooltips quote servers, files and links: never markup
    setObjectName(QStringLiteral("startWindow"));
    setWindowTitle(tr("Outbox Health"));
    m_title->setObjectName(QStringLiteral("startTitle"));
    QFont big = m_title->font();
    big.setPointSizeF(big.pointSizeF() * 1.4);
    big.setBold(true);
    m_title->setFont(big);
    m_title->setTextFormat(Qt::PlainText);
    m_message->setObjectName(QStringLiteral("startMessage"));
    m_message->setTextFormat(Qt::PlainText); // a server's message is shown as it is
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_retryLine->setObjectName(QStringLiteral("startRetryLine"));
    m_retryLine->setTextFormat(Qt::PlainText);
    m_retryButton->setObjectName(QStringLiteral("startRetryButton"));
    m_retryButton->setToolTip(tr("Try to open the database again now"));
    m_retryButton->hide();
    m_connect->setObjectName(QStringLiteral("startConnectButton"));
    m_demo->setObjectName(QStringLiteral("startDemoButton"));

    auto *cause = new QHBoxLayout;
    cause->addWidget(m_message, 1);
    cause->addWidget(m_details, 0, Qt::AlignTop);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_retryButton);
    buttons->addWidget(m_connect);
    buttons->addWidget(m_demo);
    buttons->addStretch();
    auto *central = new QWidget;
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(24, 24, 24, 24);
    layout->addWidget(m_title);
    layout->addLayout(cause);
    layout->addWidget(m_details->label());
    layout->addWidget(m_retryLine);
    layout->addLayout(buttons);
    layout->addStretch();
    setCentralWidget(central);

    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *connectAction = file->addAction(tr("Connect…"), this, &StartWindow::connectRequested);
    connectAction->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open the demo"), this, &StartWindow::demoRequested);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    quit->setShortcut(QKeySequence::Quit);

    m_retry.setSingleShot(true);
    connect(&m_retry, &QTimer::timeout, this, &StartWindow::retryNow);
    m_countdown.setInterval(1000);
    connect(&m_countdown, &QTimer::timeout, this, &StartWindow::updateRetryText);
    connect(m_retryButton, &QPushButton::clicked, this, &StartWindow::retryNow);
    connect(m_connect, &QPushButton::clicked, this, &StartWindow::connectRequested);
    connect(m_demo, &QPushButton::clicked, this, &StartWindow::demoRequested);
    resize(720, 320);
}

void StartWindow::setOpening(const QString &database)
{
    m_failures = 0;
    m_retry.stop();
    m_countdown.stop();
    m_title->setText(tr("Opening %1…").arg(database));
    m_message->setText(tr("The window opens once the database answers (at most a few seconds)."));
    m_details->setDetail({});
    m_retryButton->hide();
    updateRetryText();
}

void StartWindow::setFailed(const QString &database, const QString &error, bool autoRetry)
{
    ++m_failures;
    const FailureCause cause = FailureCause::of(error);
    m_title->setText(tr("Could not open %1").arg(database));
    m_message->setText(cause.headline() + QLatin1Char('.'));
    m_details->setDetail(cause.detail, cause.plain);
    m_retryButton->show();
    m_retryButton->setEnabled(true);
    m_connect->setDefault(true);
    if (!m_retryButton->hasFocus())
        m_connect->setFocus();
    m_retry.stop();
    m_countdown.stop();
    // As the banner: a server that is down or starting is tried again, on the same backoff.
    if (autoRetry && cause.unreachable) {
        const qint64 interval = HealthMonitor::DefaultIntervalMs;
        m_retryDelayMs = cause.authentication
            ? int(FailureCause::authRetryDelayMs(m_failures, interval))
            : HealthMonitor::retryDelayMs(m_failures, int(interval));
        m_retryAt = QDateTime::currentDateTime().addMSecs(m_retryDelayMs);
        m_retry.start(m_retryDelayMs);
        m_countdown.start();
    }
    updateRetryText();
}

void StartWindow::setRetrying()
{
    m_retry.stop();
    m_countdown.stop();
    m_retryButton->setEnabled(false);
    m_retryLine->setText(tr("Retrying now…"));
}

void StartWindow::retryNow()
{
    m_retry.stop();
    m_countdown.stop();
    emit retryRequested();
}

void StartWindow::updateRetryText()
{
    if (!m_retry.isActive()) {
        m_retryLine->setText(m_failures > 0 ? tr("Not retrying by itself: fix the cause, then "
                                                 "Retry, or Connect… to another database.")
                                            : QString());
        return;
    }
    const qint64 ms = QDateTime::currentDateTime().msecsTo(m_retryAt);
    const int seconds = int(std::ceil(double(std::max<qint64>(0, ms)) / 1000.0));
    QString text = seconds > 0 ? tr("Retrying in %n s.", nullptr, seconds) : tr("Retrying now…");
    if (m_failures > 1)
        text += QLatin1Char(' ') + tr("%n tries so far.", nullptr, m_failures);
    m_retryLine->setText(text);
}

// Nothing is retried behind a window that took over (or after the user closed this one).
void StartWindow::hideEvent(QHideEvent *event)
{
    if (!event->spontaneous()) { // hidden, not minimised
        m_retry.stop();
        m_countdown.stop();
    }
    QMainWindow::hideEvent(event);
}

QString StartWindow::message() const
{
    QString text = m_title->text() + QLatin1Char('\n') + m_message->text();
    if (!m_retryLine->text().isEmpty())
        text += QLatin1Char('\n') + m_retryLine->text();
    return text;
}

QString StartWindow::detail() const
{
    return m_details->detail();
}

QString StartWindow::retryText() const
{
    return m_retryLine->text();
}
