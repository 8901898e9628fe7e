#include "fleetproxy.h"

#include "alertdecider.h"
#include "fleetmodel.h"
#include "healthgrade.h"
#include "themecolours.h"

FleetProxy::FleetProxy(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setDynamicSortFilter(true);
    sort(0, Qt::AscendingOrder); // lessThan puts the worst first
    m_muted = AlertDecider::mutedOutboxes();
}

void FleetProxy::refreshMutes()
{
    m_muted = AlertDecider::mutedOutboxes();
    if (rowCount() > 0)
        emit dataChanged(
            index(0, FleetModel::NameColumn), index(rowCount() - 1, FleetModel::NameColumn));
}

bool FleetProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const int a = left.data(FleetModel::SeverityRole).toInt();
    const int b = right.data(FleetModel::SeverityRole).toInt();
    return a != b ? a > b : left.row() < right.row();
}

namespace {

ThemeColours::TileLevel themeLevel(const QVariant &level)
{
    switch (HealthGrade::Level(level.toInt())) {
    case HealthGrade::Level::Red:
        return ThemeColours::TileLevel::Red;
    case HealthGrade::Level::Amber:
        return ThemeColours::TileLevel::Amber;
    case HealthGrade::Level::Normal:
        break;
    }
    return ThemeColours::TileLevel::Normal;
}

// The tile colours of a figure cell, of the worst-figure and diagnosis cells (the worst
// finding's: critical red, warning amber), and of a down row's status.
std::optional<ThemeColours::Tile> cellColours(const QModelIndex &index)
{
    const int column = index.column();
    if (column == FleetModel::StatusColumn
        || (column == FleetModel::WorstColumn && index.data(FleetModel::DownRole).toBool())) {
        if (!index.data(FleetModel::DownRole).toBool())
            return std::nullopt;
        return ThemeColours::tile(ThemeColours::TileLevel::Red);
    }
    if (column != FleetModel::WorstColumn && column != FleetModel::DueColumn
        && column != FleetModel::DeadColumn && column != FleetModel::OldestPendingColumn
        && column != FleetModel::DiagnosisColumn)
        return std::nullopt;
    const QVariant level = index.data(FleetModel::LevelRole);
    if (!level.isValid() || HealthGrade::Level(level.toInt()) == HealthGrade::Level::Normal)
        return std::nullopt;
    return ThemeColours::tile(themeLevel(level));
}

} // namespace

QVariant FleetProxy::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    if (index.column() == FleetModel::EnvironmentColumn
        && (role == Qt::BackgroundRole || role == Qt::ForegroundRole)) {
        const QColor colour(index.data(FleetModel::EnvironmentColourRole).toString());
        if (!colour.isValid() || index.data().toString().isEmpty())
            return {};
        return role == Qt::BackgroundRole ? colour : ThemeColours::textOn(colour);
    }
    if (role == Qt::BackgroundRole || role == Qt::ForegroundRole) {
        const std::optional<ThemeColours::Tile> colours = cellColours(index);
        if (!colours)
            return {};
        return role == Qt::BackgroundRole ? colours->background : colours->text;
    }
    if (role == Qt::DisplayRole && index.column() == FleetModel::NameColumn
        && index.data(FleetModel::SeverityRole).isValid()) {
        const QString name = QSortFilterProxyModel::data(index, role).toString();
        const QModelIndex source = mapToSource(index);
        const auto *model = qobject_cast<const FleetModel *>(sourceModel());
        if ((!model || model->isConfigured(source.row())) && m_muted.contains(name))
            return tr("%1 (muted)").arg(name);
        return name;
    }
    return QSortFilterProxyModel::data(index, role);
}
