# Outbox Health's own schema: DESIGN.md, resources/sql/postgresql.sql, sqlite.sql and mysql.sql.
# Every logical column is itself, so the dashboard reads delivery_outbox directly; only here
# do the attempt history (delivery_attempt) and the replay log (replay_log) exist.
name = native
description = Outbox Health's native schema (delivery_outbox, delivery_attempt, replay_log)
engines = postgresql, sqlite, mysql
from = delivery_outbox

event_id = event_id
aggregate_type = aggregate_type
aggregate_id = aggregate_id
event_type = event_type
payload = payload
status = status
failures = failures
next_attempt_at = next_attempt_at
claim_token = claim_token
lease_until = lease_until
created_at = created_at
delivered_at = delivered_at
last_error_category = last_error_category
last_error = last_error

# DEAD -> PENDING through Outbox Health's replay, with a replay_log row in the same transaction.
replay = native
# DEAD -> RESOLVED (schema version 2) through Outbox Health's resolve, with a resolve_log row:
# no field needed.

postgresql.detect = SELECT 1 WHERE to_regclass('delivery_outbox') IS NOT NULL
sqlite.detect = SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'delivery_outbox'
mysql.detect = SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'delivery_outbox'
