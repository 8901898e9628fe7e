#include "attemptlines.h"

#include "attemptmodel.h"
#include "timeformat.h"

#include <QDateTime>

namespace {

// The time of day on the wall clock ("17:05:01"), "t=30" on the simulator's; the date only
// when it is not today's. `precise`: with milliseconds (the tooltip's).
QString clockTime(qint64 time, bool precise = false)
{
    if (TimeFormat::isLogical(time))
        return TimeFormat::time(time);
    const QDateTime when = QDateTime::fromMSecsSinceEpoch(time);
    if (precise || when.date() != QDate::currentDate())
        return TimeFormat::time(time);
    return when.toString(QStringLiteral("HH:mm:ss"));
}

} // namespace

QString AttemptLines::whoAndWhen(int row) const
{
    const auto raw = [this, row](int column) {
        return sourceModel()->index(row, column).data(AttemptModel::RawValueRole);
    };
    const QString worker = raw(AttemptModel::WorkerColumn).toString();
    const QVariant claimed = raw(AttemptModel::ClaimedColumn);
    const QVariant finished = raw(AttemptModel::FinishedColumn);
    const QVariant next = raw(AttemptModel::NextAttemptColumn);
    if (claimed.isNull())
        return worker;
    const qint64 at = claimed.toLongLong();
    QString text = worker.isEmpty() ? tr("at %1").arg(clockTime(at))
                                    : tr("%1 at %2").arg(worker, clockTime(at));
    if (!finished.isNull())
        text += tr(" for %1").arg(TimeFormat::span(finished.toLongLong() - at, at));
    if (!next.isNull()) {
        const qint64 from = finished.isNull() ? at : finished.toLongLong();
        text += tr("; next due %1 later").arg(TimeFormat::span(next.toLongLong() - from, at));
    }
    return text;
}

// The exact times, as stored, for the tooltip.
QString AttemptLines::exactTimes(int row) const
{
    QStringList lines;
    for (const int column : {AttemptModel::ClaimedColumn, AttemptModel::FinishedColumn,
             AttemptModel::NextAttemptColumn}) {
        const QVariant value = sourceModel()->index(row, column).data(AttemptModel::RawValueRole);
        if (!value.isNull())
            lines << sourceModel()->headerData(column, Qt::Horizontal).toString()
                    + QStringLiteral(": ") + clockTime(value.toLongLong(), true);
    }
    return lines.join(u'\n');
}

QVariant AttemptLines::data(const QModelIndex &index, int role) const
{
    if (index.column() != AttemptModel::ErrorColumn)
        return QIdentityProxyModel::data(index, role);
    if (role == Qt::ToolTipRole) {
        const QString tip = QIdentityProxyModel::data(index, role).toString();
        const QString times = exactTimes(index.row());
        return tip.isEmpty() ? times : QString(tip + QLatin1Char('\n') + times);
    }
    if (role != Qt::DisplayRole)
        return QIdentityProxyModel::data(index, role);
    const QString message = QIdentityProxyModel::data(index, role).toString();
    const QString second = whoAndWhen(index.row());
    if (message.isEmpty() || second.isEmpty())
        return message.isEmpty() ? second : message;
    return QString(message + QLatin1Char('\n') + second);
}

QVariant AttemptLines::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && section == AttemptModel::ErrorColumn) {
        if (role == Qt::DisplayRole)
            return tr("Message"); // the worker and times on each message's second line
        if (role == Qt::ToolTipRole)
            return tr("The attempt's message; below it the worker, when and how long");
    }
    return QIdentityProxyModel::headerData(section, orientation, role);
}
