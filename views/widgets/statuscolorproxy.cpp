#include "statuscolorproxy.h"

#include "themecolours.h"

#include <QBrush>
#include <QGuiApplication>
#include <QHash>
#include <QIcon>
#include <QPainter>
#include <QPalette>
#include <QPixmap>
#include <utility>

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

void StatusColorProxy::setNoteColumn(int column, int role)
{
    m_noteColumn = column;
    m_noteRole = role;
}

void StatusColorProxy::setDimmed(bool dimmed)
{
    if (std::exchange(m_dimmed, dimmed) == dimmed || rowCount() == 0)
        return;
    emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1),
        {Qt::ForegroundRole, Qt::BackgroundRole});
}

QColor StatusColorProxy::dimmedText()
{
    return QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text);
}

namespace {

QIcon markerIcon(const QString &marker)
{
    static QHash<QString, QIcon> icons;
    if (const auto found = icons.constFind(marker); found != icons.constEnd())
        return *found;
    QPixmap pixmap(12, 12);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    if (marker == QLatin1String("on-hold")) {
        painter.setPen(Qt::NoPen);
        painter.setBrush(QColor(0xd9, 0x8c, 0x00)); // amber: held on purpose
        painter.drawRect(1, 1, 10, 10);
    } else if (marker == QLatin1String("investigating")) {
        painter.setPen(QPen(QColor(0x1f, 0x6f, 0xd1), 2));
        painter.setBrush(Qt::NoBrush);
        painter.drawEllipse(QRectF(2, 2, 8, 8));
    } else {
        painter.setPen(Qt::NoPen);
        painter.setBrush(QColor(0x80, 0x80, 0x80));
        painter.drawEllipse(QRectF(3, 3, 6, 6));
    }
    painter.end();
    return *icons.insert(marker, QIcon(pixmap));
}

} // namespace

QVariant StatusColorProxy::data(const QModelIndex &index, int role) const
{
    if (role == Qt::DecorationRole && index.column() == m_noteColumn && m_noteColumn >= 0) {
        const QString marker = mapToSource(index).data(m_noteRole).toString();
        return marker.isEmpty() ? QVariant() : QVariant(markerIcon(marker));
    }
    if (role != Qt::BackgroundRole && role != Qt::ForegroundRole)
        return QIdentityProxyModel::data(index, role);
    if (m_dimmed)
        return role == Qt::ForegroundRole ? QVariant(QBrush(dimmedText())) : QVariant();
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
