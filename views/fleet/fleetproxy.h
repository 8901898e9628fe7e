// The fleet view's order and colours: worst first (FleetModel::SeverityRole: down and
// unconfigured, red, amber, waiting, healthy), the file's order among equals; a figure cell in
// its tile's amber or red, a down row's status in red, the environment in its badge colour, and
// "(muted)" after a muted outbox's name.
#pragma once

#include <QSortFilterProxyModel>
#include <QStringList>

class FleetProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit FleetProxy(QObject *parent = nullptr);

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    // Reads the muted outboxes again (AlertDecider) after a mute changed: a name is painted
    // often, the settings are not read each time.
    void refreshMutes();

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    QStringList m_muted;
};
