#include "operatorrunner.h"

#include "eventlistmodel.h"
#include "jobstatus.h"
#include "plainmessage.h"
#include "plaintext.h"

#include <QItemSelectionModel>
#include <QLocale>
#include <QMainWindow>
#include <QTableView>
#include <QThread>
#include <algorithm>

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
    // The actions follow what is selected and what state those rows are in now.
    const auto changed = [this] { emit selectionChanged(); };
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, changed);
    QAbstractItemModel *model = m_view->model();
    connect(model, &QAbstractItemModel::modelReset, this, changed);
    connect(model, &QAbstractItemModel::dataChanged, this, changed);
    connect(model, &QAbstractItemModel::layoutChanged, this, changed);
    connect(model, &QAbstractItemModel::rowsRemoved, this, changed);
}

OperatorRunner::~OperatorRunner()
{
    if (m_thread) {
        *m_stop = true; // stops between two events, each committed or never begun
        m_thread->wait();
    }
}

QStringList OperatorRunner::selectedIdsIn(const QString &status) const
{
    QStringList ids;
    for (const QModelIndex &index : m_view->selectionModel()->selectedRows()) {
        if (index.data(EventListModel::StatusRole).toString() == status)
            ids << index.data(EventListModel::EventIdRole).toString();
    }
    return ids;
}

bool OperatorRunner::selectionHas(const QString &status) const
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    return std::any_of(rows.cbegin(), rows.cend(), [&status](const QModelIndex &index) {
        return index.data(EventListModel::StatusRole).toString() == status;
    });
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
    if (!outcome.unknown.isEmpty())
        text += tr("; outcome unknown: %1 (check it)")
                    .arg(PlainText::escaped(outcome.unknown.join(QStringLiteral(", "))));
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
    if (!outcome.unknown.isEmpty()) {
        reportUnknown(outcome, text);
        return;
    }
    if (!outcome.error.isEmpty()) {
        PlainMessage::warning(m_window, text.title,
            text.stopped.arg(PlainText::escaped(outcome.error)).arg(outcome.done.size()));
        return;
    }
    const QString skipped = outcome.skipped.isEmpty()
        ? QString()
        : text.skipped.arg(
            PlainText::escaped(outcome.skipped.mid(0, 20).join(QStringLiteral(", "))));
    auto *window = qobject_cast<QMainWindow *>(m_window);
    // Nothing done is no success: the operator must notice that someone else was first.
    if (!window || outcome.done.isEmpty()) {
        PlainMessage::information(m_window, text.title,
            skipped.isEmpty() ? text.done : text.done + QLatin1Char('\n') + skipped);
        return;
    }
    // A success needs no box: the outcome in the job's part of the status bar for a while
    // (beside the connection line, never over it), and the audit row on the Audit page.
    m_status->finish(skipped.isEmpty() ? text.done : text.done + QLatin1Char(' ') + skipped);
}

// The COMMIT was sent and its answer lost: done or not, the window cannot tell. The action's
// guard makes running it again safe: it does the event only if this COMMIT did not.
void OperatorRunner::reportUnknown(const OperatorOutcome &outcome, const ReportText &text) const
{
    const QString ids = PlainText::escaped(outcome.unknown.join(QStringLiteral(", ")));
    PlainMessage::warning(m_window, tr("%1: outcome unknown").arg(text.title),
        tr("Outcome unknown: %1 — check it on the Audit page or with outboxctl explain %1. The "
           "connection was lost once the change was sent for commit, so it may have been done or "
           "not; running the same action on it again does it only if it was not.\n"
           "Done before it: %2.\n%3")
            .arg(ids, QString::number(outcome.done.size()), PlainText::escaped(outcome.error)));
}
