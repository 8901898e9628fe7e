// Display colours for the outbox tables, kept out of the core models (which link no GUI):
// a row whose status is DEAD gets a red background, and the cells of an outcome column are
// drawn in their outcome's colour, both for the palette in use (ThemeColours). A row carrying an
// operator note gets a small marker before its state: a filled square for on hold, a ring for
// investigating, a dot for a note without a marker (the note itself in the cell's tooltip).
#pragma once

#include <QColor>
#include <QIdentityProxyModel>
#include <functional>

class StatusColorProxy : public QIdentityProxyModel
{
    Q_OBJECT
public:
    // Given a source model index, returns its row's status word, e.g. "DEAD".
    using StatusFunction = std::function<QString(const QModelIndex &)>;

    explicit StatusColorProxy(QObject *parent = nullptr);

    void setStatusFunction(StatusFunction function);
    // Cells of `column` are coloured by their own word (DELIVERED, RETRY, ...); -1 for none.
    void setOutcomeColumn(int column);
    int outcomeColumn() const { return m_outcomeColumn; }
    // Cells of `column` show the marker that `role` of the source gives ("on-hold",
    // "investigating", "note"; "" for none) as their icon.
    void setNoteColumn(int column, int role);

    // Greyed rows, no state colours: rows that no longer answer what the table was asked for
    // (a new filter's read still runs).
    void setDimmed(bool dimmed);
    bool isDimmed() const { return m_dimmed; }
    static QColor dimmedText(); // the palette's disabled text

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

    // The colour a status or outcome word is drawn in across the dashboard ("DELIVERED",
    // "RETRY", "LEASE_EXPIRED", "in flight", "DUE", ...); invalid for a word without one.
    static QColor colorFor(const QString &word);

private:
    bool isDeadRow(const QModelIndex &sourceIndex) const;
    QVariant outcomeForeground(const QModelIndex &sourceIndex) const;

    StatusFunction m_status;
    int m_outcomeColumn = -1;
    int m_noteColumn = -1;
    int m_noteRole = -1;
    bool m_dimmed = false;
};
