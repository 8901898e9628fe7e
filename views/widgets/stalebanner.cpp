#include "stalebanner.h"

#include "detailsbutton.h"
#include "failurecause.h"
#include "healthmonitor.h"
#include "themecolours.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <QPushButton>
#include <cmath>

StaleBanner::StaleBanner(HealthMonitor *monitor, QWidget *parent)
    : QFrame(parent)
    , m_monitor(monitor)
    , m_text(new QLabel)
    , m_details(new DetailsButton)
{
    setObjectName(QStringLiteral("staleBanner"));
    setStyleSheet(ThemeColours::bannerStyleSheet(objectName(), ThemeColours::TileLevel::Amber));
    m_text->setObjectName(QStringLiteral("staleBannerText"));
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    auto *retry = new QPushButton(tr("Retry now"));
    retry->setObjectName(QStringLiteral("staleBannerRetry"));
    connect(retry, &QPushButton::clicked, m_monitor, &HealthMonitor::refreshNow);
    auto *row = new QHBoxLayout;
    row->addWidget(m_text, 1);
    row->addWidget(m_details);
    row->addWidget(retry);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 6, 10, 6);
    layout->setSpacing(2);
    layout->addLayout(row);
    layout->addWidget(m_details->label());
    m_countdown.setInterval(1000);
    connect(&m_countdown, &QTimer::timeout, this, &StaleBanner::updateText);
    connect(m_monitor, &HealthMonitor::staleChanged, this, &StaleBanner::onStaleChanged);
    connect(m_monitor, &HealthMonitor::healthStateChanged, this, &StaleBanner::updateText);
    onStaleChanged(m_monitor->isStale());
}

QString StaleBanner::text() const
{
    return m_text->text();
}

QString StaleBanner::detail() const
{
    return m_details->detail();
}

void StaleBanner::onStaleChanged(bool stale)
{
    setVisible(stale);
    if (stale)
        m_countdown.start();
    else
        m_countdown.stop();
    updateText();
}

void StaleBanner::updateText()
{
    if (!m_monitor->isStale()) {
        m_text->clear();
        m_details->setDetail({});
        return;
    }
    const QString cause = m_monitor->failureHeadline() + QLatin1Char('.');
    const QDateTime since = m_monitor->lastGoodAt();
    const QString figures = since.isValid()
        ? tr("The figures shown are from %1.").arg(since.toString(QStringLiteral("HH:mm:ss")))
        : tr("No figures yet.");
    // Refused credentials are retried less and less often, so as not to lock the account.
    const QString backoff = m_monitor->isAuthenticationFailure() ? QLatin1Char(' ')
            + tr("Tries back off, up to one every %1.")
                  .arg(FailureCause::waitText(FailureCause::AuthRetryCapMs))
                                                                 : QString();
    m_text->setText(cause + QLatin1Char(' ') + figures + QLatin1Char(' ') + retryText() + backoff);
    m_details->setDetail(m_monitor->lastFailureDetail(), m_monitor->lastFailure());
}

QString StaleBanner::retryText() const
{
    const QDateTime next = m_monitor->nextRetryAt();
    if (next.isValid()) {
        const qint64 ms = QDateTime::currentDateTime().msecsTo(next);
        const int seconds = int(std::ceil(double(std::max<qint64>(0, ms)) / 1000.0));
        return seconds > 0 ? tr("Retrying in %n s.", nullptr, seconds) : tr("Retrying now…");
    }
    if (m_monitor->isPaused())
        return tr("Refresh is paused.");
    return tr("Waiting for an answer…");
}
