# River (Go, riverqueue/river): its river_job table as the main migration line of
# riverdriver/riverpgxv5 creates it (002 the table and the river_job_state enum, 004 the
# state 'pending', 005 unique_key, 006 unique_states). Written from docs/profiles.md alone.
# States as River's queries write them: a fetch sets running, attempt + 1, attempted_at and
# appends the client's ID to attempted_by; a failure appends {at, attempt, error, trace} to
# errors (jsonb[]) and sets retryable (or discarded once attempt reaches max_attempts);
# JobCancel sets cancelled; a success sets completed. Every time is a timestamptz.
name = river
description = River (Go) jobs: river_job
engines = postgresql
from = river_job
event_id = id::text
aggregate_type = unavailable
# A job's queue is a lane of workers, not an aggregate.
aggregate_id = unavailable
event_type = kind
payload = args::text
status = CASE state
    WHEN 'completed' THEN 'DELIVERED'
    WHEN 'discarded' THEN 'DEAD'
    WHEN 'cancelled' THEN 'DEAD'
    ELSE 'PENDING' END
failures = COALESCE(array_length(errors, 1), 0)
next_attempt_at = FLOOR(EXTRACT(EPOCH FROM scheduled_at) * 1000)::bigint
claim_token = CASE WHEN state = 'running'
    THEN COALESCE(attempted_by[cardinality(attempted_by)], id::text) END
# River's rescuer takes a running job back after RescueStuckJobsAfter, an application setting
# (1 hour by default, JobRescuerRescueAfterDefault): the lease assumes the default.
lease_until = CASE WHEN state = 'running'
    THEN FLOOR(EXTRACT(EPOCH FROM attempted_at + interval '1 hour') * 1000)::bigint END
created_at = FLOOR(EXTRACT(EPOCH FROM created_at) * 1000)::bigint
delivered_at = CASE WHEN state = 'completed'
    THEN FLOOR(EXTRACT(EPOCH FROM finalized_at) * 1000)::bigint END
last_error_category = unavailable
# River keeps the message in error and the stack apart in trace: the message is safe to show.
last_error = CASE
    WHEN state = 'completed' THEN NULL
    WHEN cardinality(errors) > 0 THEN errors[cardinality(errors)]->>'error'
    WHEN state = 'cancelled' THEN 'cancelled (JobCancel); Client.JobRetry runs it again'
    END
attempt_limit = max_attempts
attempts = json_array
attempts_from = errors
attempt_number = CAST(attempt->>'attempt' AS integer)
attempt_finished_at = FLOOR(EXTRACT(EPOCH FROM CAST(attempt->>'at' AS timestamptz)) * 1000)::bigint
attempt_error = attempt->>'error'
# Every element is a failed attempt (RETRY, the default): an attempt's expressions read only
# the element and its ordinal, not the job's state, so the last one of a discarded job cannot
# be told DEAD here; explain's first line says DEAD.
# Client.JobRetry as River's JobRetry query runs it (state available, due now, one more attempt
# when the budget is spent, finalized_at cleared), fenced to a job that is still DEAD.
replay = UPDATE river_job SET state = 'available',
        max_attempts = CASE WHEN attempt = max_attempts THEN max_attempts + 1
            ELSE max_attempts END,
        finalized_at = NULL,
        scheduled_at = to_timestamp(CAST(:now AS bigint) / 1000.0)
    WHERE id = CAST(:event_id AS bigint) AND state IN ('discarded', 'cancelled')
detect = SELECT 1 FROM pg_attribute
    WHERE attrelid = to_regclass('river_job') AND attname = 'attempted_by' AND NOT attisdropped
