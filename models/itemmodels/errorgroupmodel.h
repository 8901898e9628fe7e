// The error groups (ErrorGroups::read) as a table, largest first: one row per signature with
// its events, how many of them are DEAD and how many still retrying, the commonest category,
// the event types and when the group was first and last seen. The Errors tab's table and its
// bar chart (DEAD and retrying side by side, through a bar model mapper) both show it.
#pragma once

#include "errorgroups.h"

#include <QAbstractTableModel>

class ErrorGroupModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        SignatureColumn,
        EventsColumn,
        DeadColumn,
        RetryingColumn, // PENDING after a failure: events - dead
        CategoryColumn,
        TypesColumn,
        FirstSeenColumn,
        LastSeenColumn,
        NoteColumn, // the group's marker and newest operator note
        ColumnCount
    };
    enum Role {
        SignatureRole = Qt::UserRole, // the signature, on every column
        TimeRole, // first/last seen in ms; null when unknown
    };

    explicit ErrorGroupModel(QObject *parent = nullptr);

    // `now` ages the first and last seen times ("4 min ago").
    void setGroups(const QList<ErrorGroup> &groups, qint64 now);
    const QList<ErrorGroup> &groups() const { return m_groups; }
    int rowOfSignature(const QString &signature) const; // -1 when no group has it

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant display(const ErrorGroup &group, int column) const;
    QVariant toolTip(const ErrorGroup &group, int column) const;
    QString toolTipText(const ErrorGroup &group, int column) const;

    QList<ErrorGroup> m_groups;
    qint64 m_now = 0;
};
