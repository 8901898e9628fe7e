#include "attemptlines.h"

#include "attemptmodel.h"
#include "timeformat.h"

#include <QDateTime>

namespace {

// The time of day on the wall clock ("17:05:01.120"), "t=30" on the simulator's; the date
// only when it is not today's.
QString clockTime(qint64 time)
{
    if (TimeFormat::isLogical(time))
        return TimeFormat::time(time);
    const QDateTime when = QDateTime::fromMSecsSinceEpoch(time);
    return when.toString(when.date() == QDate::currentDate()
            ? QStringLiteral("HH:mm:ss.zzz")
            : QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

} // namespace

QString AttemptLines::whoAndWhen(int row) const
{
    const auto raw = [this, row](int column) {
        return sourceModel()->index(row, column).data(AttemptModel::RawValueRole);
    };
    QStringList parts;
    const QString worker = raw(AttemptModel::WorkerColumn).toString();
    if (!worker.isEmpty())
        parts << worker;
    const QVariant claimed = raw(AttemptModel::ClaimedColumn);
    const QVariant finished = raw(AttemptModel::FinishedColumn);
    if (!claimed.isNull()) {
        QString times = clockTime(claimed.toLongLong());
        if (!finished.isNull()) {
            const qint64 took = finished.toLongLong() - claimed.toLongLong();
            times += QStringLiteral(" → ") + clockTime(finished.toLongLong()) + QStringLiteral(", ")
                + TimeFormat::span(took, claimed.toLongLong());
        }
        parts << times;
    }
    const QVariant next = raw(AttemptModel::NextAttemptColumn);
    if (!next.isNull())
        parts << tr("next due %1").arg(clockTime(next.toLongLong()));
    return parts.join(QStringLiteral(" · "));
}

QVariant AttemptLines::data(const QModelIndex &index, int role) const
{
    if (role != Qt::DisplayRole || index.column() != AttemptModel::ErrorColumn)
        return QIdentityProxyModel::data(index, role);
    const QString message = QIdentityProxyModel::data(index, role).toString();
    const QString second = whoAndWhen(index.row());
    if (message.isEmpty() || second.isEmpty())
        return message.isEmpty() ? second : message;
    return QString(message + QLatin1Char('\n') + second);
}

QVariant AttemptLines::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::DisplayRole
        && section == AttemptModel::ErrorColumn)
        return tr("Message, worker and times");
    return QIdentityProxyModel::headerData(section, orientation, role);
}
