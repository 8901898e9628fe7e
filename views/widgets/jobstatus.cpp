#include "jobstatus.h"

#include "elidinglabel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>
#include <cmath>

namespace {

constexpr int BarWidth = 120; // px
constexpr qint64 MinimumRateMs = 300; // a rate over less time says little

QString timeLeft(qint64 seconds)
{
    if (seconds < 60)
        return JobStatus::tr("about %n s left", nullptr, int(qMax<qint64>(seconds, 1)));
    if (seconds < 3600)
        return JobStatus::tr("about %n min left", nullptr, int((seconds + 59) / 60));
    return JobStatus::tr("about %1 h %2 min left").arg(seconds / 3600).arg(seconds % 3600 / 60);
}

} // namespace

JobStatus::JobStatus(QWidget *parent)
    : QWidget(parent)
    , m_bar(new QProgressBar)
    , m_label(new ElidingLabel(MinTextWidth))
    , m_cancel(new QPushButton(tr("Cancel")))
    , m_clear(new QTimer(this))
{
    m_bar->setObjectName(QStringLiteral("jobProgress"));
    m_bar->setFixedWidth(BarWidth);
    m_bar->setTextVisible(false);
    m_label->setObjectName(QStringLiteral("jobText"));
    m_label->setMaximumWidth(MaxTextWidth); // gives way to the health lines beside it
    m_label->setTextFormat(Qt::PlainText); // database errors and file names, never markup
    m_cancel->setObjectName(QStringLiteral("jobCancel"));
    m_cancel->setToolTip(tr("Stop between two events: what was done stays done"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_bar);
    layout->addWidget(m_label);
    layout->addWidget(m_cancel);
    m_clear->setSingleShot(true);
    m_clear->setInterval(MessageMs);
    connect(m_clear, &QTimer::timeout, this, &QWidget::hide);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        m_cancel->setEnabled(false); // once: the job stops at its next boundary
        m_cancel->setText(tr("Cancelling…"));
        emit cancelRequested();
    });
    hide();
}

void JobStatus::begin(const QString &text)
{
    m_running = true;
    m_clear->stop();
    m_clock.start();
    m_bar->setRange(0, 0); // busy until a total is known
    m_bar->show();
    m_cancel->setText(tr("Cancel"));
    m_cancel->setEnabled(true);
    m_cancel->show();
    setText(text);
    show();
}

void JobStatus::setProgress(qint64 done, qint64 total, const QString &text)
{
    if (!m_running)
        return;
    if (total > 0) {
        // QProgressBar counts in int: scaled to per mille, whatever the total.
        m_bar->setRange(0, 1000);
        m_bar->setValue(int(qBound(qint64(0), done * 1000 / total, qint64(1000))));
    }
    setText(text + rateText(done, total, m_clock.elapsed()));
}

void JobStatus::finish(const QString &message)
{
    m_running = false;
    m_bar->hide();
    m_cancel->hide();
    setText(message);
    show();
    m_clear->start();
}

void JobStatus::setText(const QString &text)
{
    m_text = text;
    m_label->setToolTip(text);
    m_label->setText(text); // cut at the right when the status bar is short of room
}

QString JobStatus::rateText(qint64 done, qint64 total, qint64 elapsedMs)
{
    if (done <= 0 || elapsedMs < MinimumRateMs)
        return {};
    const double perSecond = double(done) * 1000.0 / double(elapsedMs);
    QString text = QStringLiteral(" · ") + tr("%1/s").arg(QLocale().toString(qRound64(perSecond)));
    if (total > done)
        text += QStringLiteral(" · ")
            + timeLeft(qint64(std::ceil(double(total - done) / perSecond)));
    return text;
}
