# namastack outbox for Spring Boot (io.namastack:namastack-outbox, 1.x): table outbox_record.
# Source: namastack/namastack-outbox, namastack-outbox-jpa
#   src/main/resources/schema/postgres/outbox-tables.sql: outbox_record (id, status,
#   record_key, record_type, payload, context, created_at, completed_at, failure_count,
#   failure_reason, next_retry_at, partition_no, handler_id), TIMESTAMP WITH TIME ZONE;
#   namastack-outbox-core OutboxRecord.kt and OutboxRecordStatus.kt: created NEW with
#   next_retry_at = created_at; a failure increments failure_count, keeps failure_reason (the
#   exception's message, at most 1000 characters) and schedules next_retry_at; FAILED once
#   retries are exhausted or the exception is not retryable; COMPLETED with completed_at.
# Claims are leases on partitions (outbox_partition), not on records: in flight is not
# available per record. No SQLite support. On MySQL and MariaDB: schema/mysql and
# schema/mariadb/outbox-tables.sql, the same columns with TIMESTAMP (seconds) dates.
name = namastack
description = namastack outbox (outbox_record)
engines = postgresql, mysql
from = outbox_record

event_id = id
event_type = record_type
aggregate_type = unavailable
aggregate_id = record_key
payload = payload
status = CASE status WHEN 'COMPLETED' THEN 'DELIVERED' WHEN 'FAILED' THEN 'DEAD' ELSE 'PENDING' END
failures = failure_count
postgresql.next_attempt_at = FLOOR(EXTRACT(EPOCH FROM next_retry_at) * 1000)::bigint
mysql.next_attempt_at = FLOOR(UNIX_TIMESTAMP(next_retry_at) * 1000)
claim_token = unavailable
lease_until = unavailable
postgresql.created_at = FLOOR(EXTRACT(EPOCH FROM created_at) * 1000)::bigint
mysql.created_at = FLOOR(UNIX_TIMESTAMP(created_at) * 1000)
postgresql.delivered_at = FLOOR(EXTRACT(EPOCH FROM completed_at) * 1000)::bigint
mysql.delivered_at = FLOOR(UNIX_TIMESTAMP(completed_at) * 1000)
last_error_category = unavailable
last_error = failure_reason

# Back to NEW with a fresh retry budget, due at once; only a record that is still FAILED.
postgresql.replay = UPDATE outbox_record SET status = 'NEW', failure_count = 0,
    next_retry_at = to_timestamp(CAST(:now AS bigint) / 1000.0)
    WHERE id = :event_id AND status = 'FAILED'
mysql.replay = UPDATE outbox_record SET status = 'NEW', failure_count = 0,
    next_retry_at = FROM_UNIXTIME(CAST(:now AS SIGNED) / 1000)
    WHERE id = :event_id AND status = 'FAILED'

postgresql.detect = SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('outbox_record')
    AND attname = 'failure_count' AND NOT attisdropped
mysql.detect = SELECT 1 FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()
    AND LOWER(TABLE_NAME) = 'outbox_record' AND LOWER(COLUMN_NAME) = 'failure_count'

# Resolve is refused with this: Outbox Health writes only through the replay statement above.
resolve_unavailable = Outbox Health knows no namastack action that closes a FAILED record
    without delivering it; close or remove it through the application that owns outbox_record.
