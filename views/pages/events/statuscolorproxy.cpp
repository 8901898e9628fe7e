#include "statuscolorproxy.h"

#include "themecolours.h"

#include <QBrush>

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
        return QBrush(role == Qt::BackgroundRole ? ThemeColours::deadRowBackground()
                                                 : ThemeColours::deadRowText());
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
    return ThemeColours::status(word); // for the palette in use (ThemeColours)
}
