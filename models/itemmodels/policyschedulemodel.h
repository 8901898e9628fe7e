// The Policy lab's schedule table: a row per attempt, and for each policy compared (one or two)
// the delay before the next attempt and the time since the first; the last attempt's delay
// reads "parked DEAD". A jittered policy's cell shows its range, the tooltip min, median, max.
#pragma once

#include "policyschedule.h"

#include <QAbstractTableModel>

class PolicyScheduleModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    // Column 0 is the attempt; then NextColumn and SinceColumn for each schedule, in order.
    enum Column { AttemptColumn, NextColumn, SinceColumn, ColumnsPerSchedule = 2 };
    // The median in ms of a delay or time (-1: parked DEAD).
    static constexpr int MedianMsRole = Qt::UserRole;

    explicit PolicyScheduleModel(QObject *parent = nullptr);

    void setSchedules(const QList<PolicySchedule> &schedules);
    const QList<PolicySchedule> &schedules() const { return m_schedules; }
    // The first column of schedule `index`'s two.
    static int firstColumnOf(int index) { return 1 + index * ColumnsPerSchedule; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    // The figure in a cell: nothing for a parked attempt's delay.
    std::optional<Spread> figureAt(const QModelIndex &index) const;
    QString letter(int schedule) const; // "A: ", "B: " when two are compared

    QList<PolicySchedule> m_schedules;
};
