// What `outboxctl relay` reads back from the tables for its drained check and its summary line:
// events by state and attempts, counted by the database (the workers' own counts are exact but
// cannot see the outbox as a whole).
#pragma once

#include <QSqlDatabase>
#include <QString>
#include <optional>

namespace RelayTally {

enum class Figure {
    Pending, // events waiting for a delivery (the run is drained at 0)
    Delivered,
    Dead,
    Attempts, // every delivery attempt recorded
    LeaseExpired, // attempts whose lease ran out before an ack
};

// The figure's count; nothing, with *error (the database's text), when it could not be read.
std::optional<qint64> count(const QSqlDatabase &db, Figure figure, QString *error);

} // namespace RelayTally
