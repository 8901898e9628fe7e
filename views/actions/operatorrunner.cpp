#include "operatorrunner.h"

#include "eventlistmodel.h"
#include "jobstatus.h"
#include "plaintext.h"

#include <QItemSelectionModel>
#include <QLocale>
#include <QMessageBox>
#include <QTableView>
#include <QThread>

OperatorRunner::OperatorRunner(
    const DatabaseUrl &url, QTableView *view, bool readOnly, QWidget *window, QObject *parent)
    : QObject(parent)
    , m_url(url)
    , m_view(view)
    , m_readOnly(readOnly)
    , m_window(window)
    , m_status(new JobStatus(window))
{
    connect(this, &OperatorRunner::progressed, m_status, [this](qint64 taken, qint64 total) {
        if (!m_doing.isEmpty())
            m_status->setProgress(
                taken, total, m_doing.arg(QLocale().toString(taken), QLocale().toString(total)));
    });
    connect(m_status, &JobStatus::cancelRequested, this, &OperatorRunner::cancel);
}

OperatorRunner::~OperatorRunner()
{
    if (m_thread) {
        *m_stop = true; // stops between two events, each committed or never begun
        m_thread->wait();
    }
}

QStringList OperatorRunner::selectedDeadIds() const
{
    QStringList ids;
    for (const QModelIndex &index : m_view->selectionModel()->selectedRows()) {
        if (index.data(EventListModel::StatusRole).toString() == QLatin1String("DEAD"))
            ids << index.data(EventListModel::EventIdRole).toString();
    }
    return ids;
}

bool OperatorRunner::start(const QString &name, Work work, Done done, const ProgressText &progress)
{
    if (m_thread)
        return false;
    m_doing = progress.doing;
    if (!m_doing.isEmpty() && m_status)
        m_status->begin(progress.starting);
    auto error = std::make_shared<QString>();
    m_stop = std::make_shared<std::atomic_bool>(false);
    m_thread.reset(QThread::create(
        [url = m_url, profile = m_profile, readOnly = m_readOnly, work, error, stop = m_stop] {
            OpenOptions options;
            options.readOnly = readOnly; // a read-only window counts, and never writes
            options.validateSchema = !profile; // another schema: validated on opening
            const auto connection = DbConnection::open(url, options, error.get());
            if (connection)
                work(connection->database(), profile, stop.get(), error.get());
        }));
    m_thread->setObjectName(name);
    connect(m_thread.get(), &QThread::finished, this, [this, error, done] {
        m_thread->wait(); // `finished` comes just before the thread has fully ended
        m_thread.reset();
        emit runningChanged();
        done(*error);
    });
    m_thread->start();
    emit runningChanged();
    return true;
}

JobStatus *OperatorRunner::status() const
{
    return m_status;
}

OperatorJob::Progress OperatorRunner::progress()
{
    return [this](qsizetype taken, qsizetype total) { emit progressed(taken, total); };
}

void OperatorRunner::cancel()
{
    if (m_thread)
        *m_stop = true;
}

void OperatorRunner::finish(
    const OperatorOutcome &outcome, const QString &title, const QString &did)
{
    m_doing.clear();
    if (!m_status)
        return;
    const QLocale locale;
    if (outcome.total == 0 && !outcome.error.isEmpty()) { // refused before any event
        m_status->finish(tr("%1: %2").arg(title, outcome.error));
        return;
    }
    QString text = did.arg(locale.toString(outcome.done.size()), locale.toString(outcome.total));
    if (!outcome.skipped.isEmpty())
        text += tr(" (%n skipped)", nullptr, int(outcome.skipped.size()));
    if (outcome.cancelled)
        text += tr("; cancelled");
    else if (!outcome.error.isEmpty())
        text += tr("; stopped: %1").arg(outcome.error);
    m_status->finish(text);
}

void OperatorRunner::report(const OperatorOutcome &outcome, const ReportText &text) const
{
    if (outcome.cancelled)
        return;
    if (!outcome.error.isEmpty()) {
        QMessageBox::warning(m_window, text.title,
            text.stopped.arg(PlainText::escaped(outcome.error)).arg(outcome.done.size()));
        return;
    }
    QString message = text.done;
    if (!outcome.skipped.isEmpty())
        message += QLatin1Char('\n')
            + text.skipped.arg(
                PlainText::escaped(outcome.skipped.mid(0, 20).join(QStringLiteral(", "))));
    QMessageBox::information(m_window, text.title, message);
}
