// The attempt history of one event (master-detail): rows of delivery_attempt as values, times
// formatted for reading (colours are the view's). readRows() is the one statement, run by
// whoever owns a connection (the detail worker, a test); the model itself never reads.
#pragma once

#include "outboxprofile.h"
#include "valuetablemodel.h"

#include <QSqlDatabase>
#include <optional>

class AttemptModel : public ValueTableModel
{
    Q_OBJECT
public:
    enum Column {
        AttemptColumn,
        WorkerColumn,
        ClaimedColumn,
        FinishedColumn,
        OutcomeColumn,
        ErrorCategoryColumn,
        ErrorColumn,
        ConsumerResultColumn,
        NextAttemptColumn,
        ColumnCount
    };
    enum Role {
        RawValueRole = Qt::UserRole, // the stored value, e.g. times in ms or units
        // The outcome as it stands: the stored one, else LEASE_EXPIRED for an unfinished
        // attempt whose lease ran out (or that a later claim superseded), else empty (in flight).
        OutcomeRole
    };

    explicit AttemptModel(QObject *parent = nullptr);

    // The attempts of `eventId` in attempt order; nullopt with *error set when the read failed.
    static std::optional<SqlRows> readRows(
        const QSqlDatabase &db, const QString &eventId, QString *error = nullptr);
    // The same through `profile` (null: the native schema), in a read-only transaction: at most
    // the newest AttemptMapping::ReadLimit attempts, *cut set when there were more. The newest
    // attempt of an event whose `eventStatus` is DEAD reads as SourceReader::newestOutcome says.
    static std::optional<SqlRows> readRows(const QSqlDatabase &db, const OutboxProfile *profile,
        const QString &eventId, QString *error, bool *cut, const QString &eventStatus = {});

    // The event's lease (null: no claim held) as of `now`, read with the same detail.
    static std::optional<QVariant> readLeaseUntil(
        const QSqlDatabase &db, const QString &eventId, QString *error = nullptr);

    // Shows `rows` as the attempts of `eventId`; an empty ID shows none. `leaseRunning`: the
    // event holds a claim whose lease has not run out yet, so its last unfinished attempt is
    // in flight; otherwise an unfinished attempt shows as LEASE EXPIRED.
    void setRows(const QString &eventId, const SqlRows &rows, bool leaseRunning = true);
    // Reads and shows at once, on the calling thread (tests and tools; the window uses a worker).
    bool setEvent(const QSqlDatabase &db, const QString &eventId);
    QString eventId() const { return m_eventId; }

protected:
    QVariant cellData(int row, int column, int role) const override;

private:
    QString outcome(int row) const;
    QVariant display(int row, int column) const;

    QString m_eventId;
    bool m_leaseRunning = true;
};
