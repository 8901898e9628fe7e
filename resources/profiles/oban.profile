# Oban 2.x (Elixir, hex package oban): one row per job in oban_jobs (prefix "public").
# Source: oban-bg/oban, lib/oban/migrations/
#   postgres/v01.ex..v15.ex  oban_jobs (id bigserial, state oban_job_state, queue, worker,
#                       args jsonb, errors jsonb[], attempt, max_attempts, inserted_at,
#                       scheduled_at, attempted_at, completed_at; v03 attempted_by text[];
#                       v08 discarded_at, priority, tags; v09 meta, cancelled_at and the state
#                       'cancelled'; v14 the state 'suspended', held until resumed, read as
#                       PENDING); times are utc_datetime_usec: timestamp without time zone, UTC
#   myxql.ex            the same columns for MySQL/MariaDB (Oban's Dolphin engine): state ENUM,
#                       JSON arrays for errors and attempted_by, DATETIME(6) in UTC
#   sqlite.ex           the same columns for SQLite (Oban's Lite engine, ecto_sqlite3): TEXT
#                       state, JSON text arrays, times as ISO 8601 text ("...T08:00:00.000000Z")
# lib/oban/job.ex and lib/oban/engines/basic.ex: states available, scheduled, executing,
# retryable, completed, discarded (attempts exhausted, or {:discard, _}), cancelled; a fetch
# sets executing, attempt + 1, attempted_at, attempted_by = [node, producer]; every failed
# attempt appends {at, attempt, error} to errors, error = Exception.format(...) with its
# stacktrace; retry_job: state available, max_attempts = GREATEST(max_attempts, attempt + 1),
# scheduled_at now, completed_at/cancelled_at/discarded_at NULL, unless available or executing.
# An executing job's lease is the application's Lifeline plugin setting (rescue_after), not in
# the table: lease expired is not available.
name = oban
description = Oban jobs (oban_jobs); discarded jobs count as DEAD, cancelled ones as RESOLVED
engines = postgresql, mysql, sqlite
# A cancelled job is kept, never run again unless retried: Outbox Health's RESOLVED.
statuses = PENDING, DELIVERED, DEAD, RESOLVED
from = oban_jobs

postgresql.event_id = id::text
mysql.event_id = CAST(id AS CHAR)
sqlite.event_id = CAST(id AS TEXT)
event_type = worker
aggregate_type = unavailable
aggregate_id = unavailable
postgresql.payload = args::text
mysql.payload = CAST(args AS CHAR)
sqlite.payload = args
status = CASE state WHEN 'completed' THEN 'DELIVERED' WHEN 'discarded' THEN 'DEAD'
    WHEN 'cancelled' THEN 'RESOLVED' ELSE 'PENDING' END
# One errors entry per failed attempt (a snooze raises attempt but records no error).
postgresql.failures = COALESCE(array_length(errors, 1), 0)
mysql.failures = JSON_LENGTH(errors)
sqlite.failures = json_array_length(errors)
postgresql.next_attempt_at = FLOOR(EXTRACT(EPOCH FROM scheduled_at) * 1000)::bigint
mysql.next_attempt_at = FLOOR(UNIX_TIMESTAMP(scheduled_at) * 1000)
sqlite.next_attempt_at = CAST(strftime('%s', scheduled_at) AS INTEGER) * 1000
    + CAST(substr(strftime('%f', scheduled_at), 4, 3) AS INTEGER)
# An executing job is claimed by the node in attempted_by.
postgresql.claim_token = CASE WHEN state = 'executing' THEN COALESCE(attempted_by[1], id::text) END
mysql.claim_token = CASE WHEN state = 'executing'
    THEN COALESCE(JSON_UNQUOTE(JSON_EXTRACT(attempted_by, '$[0]')), CAST(id AS CHAR)) END
sqlite.claim_token = CASE WHEN state = 'executing'
    THEN COALESCE(json_extract(attempted_by, '$[0]'), CAST(id AS TEXT)) END
lease_until = unavailable
postgresql.created_at = FLOOR(EXTRACT(EPOCH FROM inserted_at) * 1000)::bigint
mysql.created_at = FLOOR(UNIX_TIMESTAMP(inserted_at) * 1000)
sqlite.created_at = CAST(strftime('%s', inserted_at) AS INTEGER) * 1000
    + CAST(substr(strftime('%f', inserted_at), 4, 3) AS INTEGER)
postgresql.delivered_at = CASE WHEN state = 'completed'
    THEN FLOOR(EXTRACT(EPOCH FROM completed_at) * 1000)::bigint END
mysql.delivered_at = CASE WHEN state = 'completed'
    THEN FLOOR(UNIX_TIMESTAMP(completed_at) * 1000) END
sqlite.delivered_at = CASE WHEN state = 'completed'
    THEN CAST(strftime('%s', completed_at) AS INTEGER) * 1000
        + CAST(substr(strftime('%f', completed_at), 4, 3) AS INTEGER) END
last_error_category = unavailable
# The first line of the last attempt's error ("** (RuntimeError) boom"), never its stacktrace;
# a job cancelled without an error says so. A completed job's old errors are no error.
postgresql.last_error = CASE WHEN state = 'completed' THEN NULL
    WHEN cardinality(errors) > 0 THEN split_part(errors[cardinality(errors)]->>'error', chr(10), 1)
    WHEN state = 'cancelled' THEN 'cancelled (Oban.cancel_job); Oban.retry_job runs it again' END
# The last element by its index: on MariaDB 10.11 '$[last]' read NULL for every row of a
# statement once a job with no errors came first.
mysql.last_error = CASE WHEN state = 'completed' THEN NULL
    WHEN JSON_LENGTH(errors) > 0 THEN SUBSTRING_INDEX(JSON_UNQUOTE(JSON_EXTRACT(errors,
        CONCAT('$[', JSON_LENGTH(errors) - 1, '].error'))), CONVERT(CHAR(10) USING utf8mb4), 1)
    WHEN state = 'cancelled' THEN 'cancelled (Oban.cancel_job); Oban.retry_job runs it again' END
sqlite.last_error = CASE WHEN state = 'completed' THEN NULL
    WHEN json_array_length(errors) > 0 THEN substr(json_extract(errors, '$[#-1].error'), 1,
        instr(json_extract(errors, '$[#-1].error') || char(10), char(10)) - 1)
    WHEN state = 'cancelled' THEN 'cancelled (Oban.cancel_job); Oban.retry_job runs it again' END

# The attempt limit is the job's own max_attempts (a retry raises it); the history is the errors
# array, one {at, attempt, error} per failed attempt, its newest elements read.
attempt_limit = max_attempts
attempts = json_array
attempts_from = errors
postgresql.attempt_number = CAST(attempt->>'attempt' AS integer)
mysql.attempt_number = CAST(JSON_EXTRACT(attempt, '$.attempt') AS SIGNED)
sqlite.attempt_number = json_extract(attempt, '$.attempt')
postgresql.attempt_finished_at = FLOOR(EXTRACT(EPOCH FROM CAST(attempt->>'at' AS timestamptz))
    * 1000)::bigint
mysql.attempt_finished_at = FLOOR(UNIX_TIMESTAMP(STR_TO_DATE(JSON_UNQUOTE(JSON_EXTRACT(attempt,
    '$.at')), '%Y-%m-%dT%H:%i:%s.%fZ')) * 1000)
sqlite.attempt_finished_at = CAST(strftime('%s', json_extract(attempt, '$.at')) AS INTEGER) * 1000
    + CAST(substr(strftime('%f', json_extract(attempt, '$.at')), 4, 3) AS INTEGER)
postgresql.attempt_error = attempt->>'error'
mysql.attempt_error = JSON_UNQUOTE(JSON_EXTRACT(attempt, '$.error'))
sqlite.attempt_error = json_extract(attempt, '$.error')

# What Oban.retry_job/2 runs, fenced to a job that is still discarded or cancelled.
postgresql.replay = UPDATE oban_jobs SET state = 'available',
    max_attempts = GREATEST(max_attempts, attempt + 1),
    scheduled_at = to_timestamp(CAST(:now AS bigint) / 1000.0) AT TIME ZONE 'UTC',
    completed_at = NULL, cancelled_at = NULL, discarded_at = NULL
    WHERE id = CAST(:event_id AS bigint) AND state IN ('discarded', 'cancelled')
mysql.replay = UPDATE oban_jobs SET state = 'available',
    max_attempts = GREATEST(max_attempts, attempt + 1),
    scheduled_at = FROM_UNIXTIME(CAST(:now AS SIGNED) / 1000),
    completed_at = NULL, cancelled_at = NULL, discarded_at = NULL
    WHERE id = CAST(:event_id AS SIGNED) AND state IN ('discarded', 'cancelled')
sqlite.replay = UPDATE oban_jobs SET state = 'available',
    max_attempts = MAX(max_attempts, attempt + 1),
    scheduled_at = strftime('%Y-%m-%dT%H:%M:%f', CAST(:now AS INTEGER) / 1000.0, 'unixepoch')
        || '000Z',
    completed_at = NULL, cancelled_at = NULL, discarded_at = NULL
    WHERE id = CAST(:event_id AS INTEGER) AND state IN ('discarded', 'cancelled')

postgresql.detect = SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('oban_jobs')
    AND attname = 'cancelled_at' AND NOT attisdropped
mysql.detect = SELECT 1 FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()
    AND LOWER(TABLE_NAME) = 'oban_jobs' AND LOWER(COLUMN_NAME) = 'cancelled_at'
sqlite.detect = SELECT 1 FROM pragma_table_info('oban_jobs') WHERE name = 'cancelled_at'

# Resolve writes what Oban.cancel_job/1 writes (state cancelled, cancelled_at now), fenced to a
# discarded job: Oban's own cancel_job leaves discarded jobs as they are, but a cancelled row is
# one Oban knows (retry_job runs it again, the Pruner deletes it after its max_age). Reopen
# parks a cancelled job again as discarded (discarded_at now, cancelled_at cleared), the state
# Oban gives a job whose attempts are spent.
postgresql.resolve = UPDATE oban_jobs SET state = 'cancelled',
    cancelled_at = to_timestamp(CAST(:now AS bigint) / 1000.0) AT TIME ZONE 'UTC'
    WHERE id = CAST(:event_id AS bigint) AND state = 'discarded'
mysql.resolve = UPDATE oban_jobs SET state = 'cancelled',
    cancelled_at = FROM_UNIXTIME(CAST(:now AS SIGNED) / 1000)
    WHERE id = CAST(:event_id AS SIGNED) AND state = 'discarded'
sqlite.resolve = UPDATE oban_jobs SET state = 'cancelled',
    cancelled_at = strftime('%Y-%m-%dT%H:%M:%f', CAST(:now AS INTEGER) / 1000.0, 'unixepoch')
        || '000Z'
    WHERE id = CAST(:event_id AS INTEGER) AND state = 'discarded'
postgresql.reopen = UPDATE oban_jobs SET state = 'discarded', cancelled_at = NULL,
    discarded_at = to_timestamp(CAST(:now AS bigint) / 1000.0) AT TIME ZONE 'UTC'
    WHERE id = CAST(:event_id AS bigint) AND state = 'cancelled'
mysql.reopen = UPDATE oban_jobs SET state = 'discarded', cancelled_at = NULL,
    discarded_at = FROM_UNIXTIME(CAST(:now AS SIGNED) / 1000)
    WHERE id = CAST(:event_id AS SIGNED) AND state = 'cancelled'
sqlite.reopen = UPDATE oban_jobs SET state = 'discarded', cancelled_at = NULL,
    discarded_at = strftime('%Y-%m-%dT%H:%M:%f', CAST(:now AS INTEGER) / 1000.0, 'unixepoch')
        || '000Z'
    WHERE id = CAST(:event_id AS INTEGER) AND state = 'cancelled'
