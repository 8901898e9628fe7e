// The health snapshots of one or more outboxes as a Prometheus scrape: the text exposition
// format (version 0.0.4) or OpenMetrics 1.0. Every family has HELP and TYPE; values are in base
// units (seconds); labels carry the outbox's name and a state, bucket or category (outbox_info
// also its database URL without a password, when the operator asks for it), never an event ID,
// an aggregate or a message. A figure
// the outbox's schema cannot tell is absent, never 0. An outbox with a replication slot
// (HealthSnapshot::cdc) also has the outbox_cdc_* families (docs/cdc.md). `outboxctl metrics`
// and `outboxctl serve` print it (docs/outboxctl.md, metrics).
#pragma once

#include "healthsnapshot.h"

#include <QList>
#include <QString>
#include <optional>

// One outbox of a scrape: its snapshot, or none when it could not be read (outbox_up 0).
struct OutboxMetrics
{
    QString outbox;
    // Its database URL without a password (outbox_info's db label: alert rules make a link to
    // the dashboard of it), set only when the operator asked for it (--expose-db-url): the
    // user, host, port and database are not every scraper's business. Empty: outbox_info
    // carries the outbox label only.
    QString db;
    std::optional<HealthSnapshot> snapshot;
    double snapshotSeconds = 0; // how long reading it took (or failing to)
    // How many snapshots were taken since the server started (outbox_snapshots_total, a
    // counter); none for a one-off `outboxctl metrics`.
    std::optional<qint64> snapshotsTaken;
};
Q_DECLARE_METATYPE(OutboxMetrics)

namespace MetricsText {

enum class Format { Prometheus, OpenMetrics };

QString render(const QList<OutboxMetrics> &outboxes, const QString &version, Format format);
// The Content-Type an HTTP server answers with.
QString contentType(Format format);
// A label value with \, " and line feeds escaped, as both formats require.
QString escapeLabel(const QString &value);

} // namespace MetricsText
