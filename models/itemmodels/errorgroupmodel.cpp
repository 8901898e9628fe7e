#include "errorgroupmodel.h"

#include "plaintext.h"
#include "timeformat.h"

namespace {

QString typesText(const ErrorGroup &group)
{
    QStringList parts;
    for (const QString &type : group.typesByCount())
        parts << QStringLiteral("%1 %2").arg(type).arg(group.eventTypes.value(type));
    return parts.join(QStringLiteral(", "));
}

std::optional<qint64> seen(const ErrorGroup &group, int column)
{
    return column == ErrorGroupModel::FirstSeenColumn ? group.firstSeen : group.lastSeen;
}

bool isCount(int column)
{
    using M = ErrorGroupModel;
    return column == M::EventsColumn || column == M::DeadColumn || column == M::RetryingColumn;
}

} // namespace

ErrorGroupModel::ErrorGroupModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void ErrorGroupModel::setGroups(const QList<ErrorGroup> &groups, qint64 now)
{
    beginResetModel();
    m_groups = groups;
    m_now = now;
    endResetModel();
}

int ErrorGroupModel::rowOfSignature(const QString &signature) const
{
    for (int row = 0; row < m_groups.size(); ++row) {
        if (m_groups.at(row).signature == signature)
            return row;
    }
    return -1;
}

int ErrorGroupModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_groups.size());
}

int ErrorGroupModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ErrorGroupModel::display(const ErrorGroup &group, int column) const
{
    switch (column) {
    case SignatureColumn:
        return PlainText::escaped(group.signature);
    case EventsColumn:
        return group.count;
    case DeadColumn:
        return group.dead;
    case RetryingColumn:
        return group.retrying();
    case CategoryColumn:
        return group.category.isEmpty() ? tr("none") : PlainText::escaped(group.category);
    case TypesColumn:
        return PlainText::escaped(typesText(group));
    case FirstSeenColumn:
    case LastSeenColumn: {
        const std::optional<qint64> time = seen(group, column);
        return time ? TimeFormat::relative(*time, m_now) : tr("n/a");
    }
    case NoteColumn: {
        const QString marker = group.markerText();
        if (group.note.isEmpty())
            return marker;
        // One line in the table: the note's first line, its whole text in the tooltip.
        constexpr int Shown = 48; // characters; the whole note is in the tooltip
        QString line = group.note.section(u'\n', 0, 0);
        if (line.size() > Shown)
            line = line.left(Shown - 1) + QChar(0x2026);
        line = PlainText::escaped(line);
        return marker.isEmpty() ? line : marker + QStringLiteral(" · ") + line;
    }
    default:
        return {};
    }
}

// Every tooltip is PlainText::toolTip: signatures, examples and types are the database's words.
QVariant ErrorGroupModel::toolTip(const ErrorGroup &group, int column) const
{
    const QString text = toolTipText(group, column);
    return text.isEmpty() ? QVariant() : QVariant(PlainText::toolTip(text));
}

QString ErrorGroupModel::toolTipText(const ErrorGroup &group, int column) const
{
    switch (column) {
    case SignatureColumn:
        return tr("%1\ne.g. %2").arg(group.signature, group.example);
    case TypesColumn:
        return typesText(group);
    case FirstSeenColumn:
    case LastSeenColumn: {
        const std::optional<qint64> time = seen(group, column);
        return time ? TimeFormat::time(*time)
                    : tr("Not available: the schema keeps no attempt history");
    }
    case NoteColumn: {
        if (group.note.isEmpty())
            return {};
        return tr("%1 (%2)").arg(group.note, group.noteBy);
    }
    default:
        return {};
    }
}

QVariant ErrorGroupModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ErrorGroup &group = m_groups.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return display(group, index.column());
    case Qt::ToolTipRole:
        return toolTip(group, index.column());
    case Qt::TextAlignmentRole:
        if (isCount(index.column()))
            return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        return {};
    case SignatureRole:
        return group.signature;
    case TimeRole: {
        const bool time = index.column() == FirstSeenColumn || index.column() == LastSeenColumn;
        const std::optional<qint64> value = time ? seen(group, index.column()) : std::nullopt;
        return value ? QVariant(*value) : QVariant();
    }
    default:
        return {};
    }
}

QVariant ErrorGroupModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case SignatureColumn:
        return tr("Error signature");
    case EventsColumn:
        return tr("Events");
    case DeadColumn:
        return tr("DEAD");
    case RetryingColumn:
        return tr("Retrying");
    case CategoryColumn:
        return tr("Category");
    case TypesColumn:
        return tr("Event types");
    case FirstSeenColumn:
        return tr("First seen");
    case LastSeenColumn:
        return tr("Last seen");
    case NoteColumn:
        return tr("Note");
    default:
        return {};
    }
}
