#include "statuscolorproxy.h"

#include <QBrush>

namespace {

const QColor DeadBackground(0xff, 0xeb, 0xe9);
const QColor DeadText(0x82, 0x07, 0x1e);

} // namespace

StatusColorProxy::StatusColorProxy(QObject *parent)
    : QIdentityProxyModel(parent)
{ }

void StatusColorProxy::setStatusFunction(StatusFunction function)
{
    beginResetModel();
    m_status = std::move(function);
    endResetModel();
}

void StatusColorProxy::setOutcomeColumn(int column)
{
    beginResetModel();
    m_outcomeColumn = column;
    endResetModel();
}

QVariant StatusColorProxy::data(const QModelIndex &index, int role) const
{
    if (role != Qt::BackgroundRole && role != Qt::ForegroundRole)
        return QIdentityProxyModel::data(index, role);
    const QModelIndex source = mapToSource(index);
    if (role == Qt::ForegroundRole && index.column() == m_outcomeColumn) {
        const QVariant colour = outcomeForeground(source);
        if (colour.isValid())
            return colour;
    }
    if (isDeadRow(source))
        return QBrush(role == Qt::BackgroundRole ? DeadBackground : DeadText);
    return QIdentityProxyModel::data(index, role);
}

bool StatusColorProxy::isDeadRow(const QModelIndex &sourceIndex) const
{
    return m_status && m_status(sourceIndex) == QLatin1String("DEAD");
}

QVariant StatusColorProxy::outcomeForeground(const QModelIndex &sourceIndex) const
{
    const QColor colour = colorFor(sourceIndex.data(Qt::DisplayRole).toString());
    return colour.isValid() ? QVariant(QBrush(colour)) : QVariant();
}

QColor StatusColorProxy::colorFor(const QString &word)
{
    const QString key = word.trimmed().toUpper().replace(QLatin1Char('_'), QLatin1Char(' '));
    if (key == QLatin1String("DELIVERED"))
        return QColor(0x1a, 0x7f, 0x37);
    if (key == QLatin1String("DEAD"))
        return QColor(0xcf, 0x22, 0x2e);
    if (key == QLatin1String("RETRY") || key == QLatin1String("LEASE EXPIRED")
        || key == QLatin1String("SCHEDULED"))
        return QColor(0xb0, 0x78, 0x00);
    if (key == QLatin1String("IN FLIGHT"))
        return QColor(0x09, 0x69, 0xda);
    if (key == QLatin1String("DUE"))
        return QColor(0x57, 0x72, 0x8f);
    return {};
}
