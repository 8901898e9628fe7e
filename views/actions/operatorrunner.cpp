#include "operatorrunner.h"

#include "eventlistmodel.h"
#include "plainmessage.h"
#include "plaintext.h"

#include <QItemSelectionModel>
#include <QTableView>
#include <QThread>

OperatorRunner::OperatorRunner(
    const DatabaseUrl &url, QTableView *view, bool readOnly, QWidget *window, QObject *parent)
    : QObject(parent)
    , m_url(url)
    , m_view(view)
    , m_readOnly(readOnly)
    , m_window(window)
{ }

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

bool OperatorRunner::start(const QString &name, Work work, Done done)
{
    if (m_thread)
        return false;
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

void OperatorRunner::report(const OperatorOutcome &outcome, const ReportText &text) const
{
    if (!outcome.error.isEmpty()) {
        PlainMessage::warning(m_window, text.title,
            text.stopped.arg(PlainText::escaped(outcome.error)).arg(outcome.done.size()));
        return;
    }
    QString message = text.done;
    if (!outcome.skipped.isEmpty())
        message += QLatin1Char('\n')
            + text.skipped.arg(
                PlainText::escaped(outcome.skipped.mid(0, 20).join(QStringLiteral(", "))));
    PlainMessage::information(m_window, text.title, message);
}
