# Debezium's outbox event router (io.debezium.transforms.outbox.EventRouter, the usual setup in
# Java and Quarkus services): the table its default configuration expects, `outbox`.
# Source: debezium/debezium, documentation/modules/ROOT/pages/transformations/
#   outbox-event-router.adoc, "Expected outbox table structure": id uuid NOT NULL,
#   aggregatetype varchar(255) NOT NULL, aggregateid varchar(255) NOT NULL, type varchar(255)
#   NOT NULL, payload jsonb; a timestamp column is optional (table.field.event.timestamp; by
#   default the router takes the change event's own time).
# The connector does not poll this table: it reads the INSERT from PostgreSQL's write-ahead log
# through a logical replication slot, and the service usually deletes the row in the same
# transaction. So a row never changes state, and nothing in the table says whether the
# connector has read it: every row still present counts as PENDING and due (the table's own
# size, zero when rows are deleted at once), no age is judged (no creation time by default),
# and DELIVERED, DEAD, failures, claims and errors are not available. Whether events flow is
# the replication slot's to tell: give it with `cdc_slot = NAME` in a copy of this profile or
# `--cdc-slot NAME` (Debezium's default slot.name is `debezium`; docs/cdc.md).
name = debezium
description = Debezium outbox event router (outbox): rows still in the table; health from the replication slot
engines = postgresql
statuses = PENDING
from = outbox

event_id = CAST(id AS text)
event_type = type
aggregate_type = aggregatetype
aggregate_id = aggregateid
payload = CAST(payload AS text)
status = 'PENDING'
failures = unavailable
# Due, with no time of its own (0): the connector relays a committed row as soon as it reads
# the WAL, and the table holds no time to compare (a clock of the server's would count a row as
# scheduled whenever that clock runs ahead of the reader's).
next_attempt_at = 0
claim_token = unavailable
lease_until = unavailable
created_at = unavailable
delivered_at = unavailable
last_error_category = unavailable
last_error = unavailable

replay_unavailable = Debezium relays what it reads from the write-ahead log, not the rows of
    outbox: to send an event again, insert it again (with a new id), or have the connector
    take an incremental snapshot of the table (a signal); Outbox Health does not write outbox.
resolve_unavailable = Debezium's outbox has no state that closes an event; only the service
    deletes a row of outbox.

postgresql.detect = SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('outbox')
    AND attname = 'aggregatetype' AND NOT attisdropped
