#include "policyschedulemodel.h"

PolicyScheduleModel::PolicyScheduleModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void PolicyScheduleModel::setSchedules(const QList<PolicySchedule> &schedules)
{
    beginResetModel();
    m_schedules = schedules;
    endResetModel();
}

int PolicyScheduleModel::rowCount(const QModelIndex &parent) const
{
    int rows = 0;
    for (const PolicySchedule &schedule : m_schedules)
        rows = std::max(rows, schedule.budget());
    return parent.isValid() ? 0 : rows;
}

int PolicyScheduleModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : firstColumnOf(int(m_schedules.size()));
}

std::optional<Spread> PolicyScheduleModel::figureAt(const QModelIndex &index) const
{
    const PolicySchedule &schedule = m_schedules.at((index.column() - 1) / ColumnsPerSchedule);
    const ScheduleStep &step = schedule.steps().at(index.row());
    if ((index.column() - 1) % ColumnsPerSchedule == 0)
        return step.delay;
    return step.sinceFirst;
}

QVariant PolicyScheduleModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    if (index.column() == AttemptColumn)
        return role == Qt::DisplayRole || role == MedianMsRole ? QVariant(index.row() + 1)
                                                               : QVariant();
    const std::optional<Spread> figure = figureAt(index);
    switch (role) {
    case Qt::DisplayRole:
        return figure ? PolicySchedule::spreadText(*figure) : tr("parked DEAD");
    case MedianMsRole:
        return figure ? figure->median : -1;
    case Qt::ToolTipRole:
        if (!figure)
            return tr("The budget is spent: this attempt's failure parks the event DEAD.");
        if (figure->min == figure->max)
            return tr("%1 ms").arg(figure->median);
        return tr("min %1 ms, median %2 ms, max %3 ms")
            .arg(figure->min)
            .arg(figure->median)
            .arg(figure->max);
    default:
        return {};
    }
}

QString PolicyScheduleModel::letter(int schedule) const
{
    return m_schedules.size() < 2 ? QString() : QString(QChar(u'A' + schedule)) + u": "_qs;
}

QVariant PolicyScheduleModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    if (section == AttemptColumn)
        return role == Qt::DisplayRole ? tr("Attempt") : QVariant();
    const int schedule = (section - 1) / ColumnsPerSchedule;
    const bool next = (section - 1) % ColumnsPerSchedule == 0;
    if (role == Qt::DisplayRole)
        return QString(letter(schedule) + (next ? tr("next after") : tr("since first")));
    if (role == Qt::ToolTipRole)
        return (next ? tr("%1: the wait before the next attempt")
                     : tr("%1: when this attempt runs, counted from the first"))
            .arg(m_schedules.at(schedule).policy());
    return {};
}
