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
# available per record. No SQLite support.
name = namastack
description = namastack outbox (outbox_record)
engines = postgresql
from = outbox_record

event_id = id
event_type = record_type
aggregate_type = unavailable
aggregate_id = record_key
payload = payload
status = CASE status WHEN 'COMPLETED' THEN 'DELIVERED' WHEN 'FAILED' THEN 'DEAD' ELSE 'PENDING' END
failures = failure_count
next_attempt_at = FLOOR(EXTRACT(EPOCH FROM next_retry_at) * 1000)::bigint
claim_token = unavailable
lease_until = unavailable
created_at = FLOOR(EXTRACT(EPOCH FROM created_at) * 1000)::bigint
delivered_at = FLOOR(EXTRACT(EPOCH FROM completed_at) * 1000)::bigint
last_error_category = unavailable
last_error = failure_reason

# Back to NEW with a fresh retry budget, due at once; only a record that is still FAILED.
replay = UPDATE outbox_record SET status = 'NEW', failure_count = 0,
    next_retry_at = to_timestamp(CAST(:now AS bigint) / 1000.0)
    WHERE id = :event_id AND status = 'FAILED'

detect = SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('outbox_record')
    AND attname = 'failure_count' AND NOT attisdropped

# Resolve is refused with this: Outbox Health writes only through the replay statement above.
resolve_unavailable = Outbox Health knows no namastack action that closes a FAILED record
    without delivering it; close or remove it through the application that owns outbox_record.
