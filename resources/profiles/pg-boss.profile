# pg-boss v10 (npm pg-boss@10, schema version 24): one row per job in pgboss.job, a table
# partitioned by queue name. Source: pg-boss 10.4.2, src/plans.js:
#   createTableJob  the columns (id uuid, name, data jsonb, state job_state, retry_limit,
#                   retry_count, start_after, started_on, expire_in interval, created_on,
#                   completed_on, output jsonb, singleton_key, ...)
#   JOB_STATES      created, retry, active, completed, cancelled, failed
#   fetchNextJob    claims: state 'active', started_on = now(); retry_count + 1 on a re-fetch
#   failJobs        a failure: 'retry' while retry_count < retry_limit (start_after = the
#                   retry delay), else 'failed' with completed_on; output = the serialized error
#   failJobsByTimeout  'active' jobs past started_on + expire_in fail by timeout
#   retryJobs       boss.retry(): state 'retry', retry_limit + 1, only WHERE state = 'failed'
# Jobs archived into pgboss.archive (completed after archiveCompletedAfterSeconds) are not read.
# pg-boss runs on PostgreSQL only.
name = pg-boss
description = pg-boss v10 jobs (pgboss.job); cancelled jobs count as DEAD, archived jobs are not included
engines = postgresql
from = pgboss.job

event_id = id::text
event_type = name
aggregate_type = unavailable
aggregate_id = singleton_key
payload = data::text
status = CASE state WHEN 'completed' THEN 'DELIVERED' WHEN 'failed' THEN 'DEAD'
    WHEN 'cancelled' THEN 'DEAD' ELSE 'PENDING' END
# retry_count counts the re-fetches: a job in 'retry' or 'failed' has failed once more than that.
failures = CASE WHEN state IN ('retry', 'failed') THEN retry_count + 1 ELSE retry_count END
next_attempt_at = FLOOR(EXTRACT(EPOCH FROM start_after) * 1000)::bigint
# An active job is claimed; its lease is what failJobsByTimeout enforces.
claim_token = CASE WHEN state = 'active' THEN id::text END
lease_until = CASE WHEN state = 'active'
    THEN FLOOR(EXTRACT(EPOCH FROM started_on + expire_in) * 1000)::bigint END
created_at = FLOOR(EXTRACT(EPOCH FROM created_on) * 1000)::bigint
delivered_at = CASE WHEN state = 'completed'
    THEN FLOOR(EXTRACT(EPOCH FROM completed_on) * 1000)::bigint END
# retry_limit counts the retries after the first attempt; boss.retry() raises it. pg-boss
# keeps the last error only (output).
attempt_limit = retry_limit + 1
last_error_category = unavailable
# The message only (never the stack or the job's data): an Error is stored as {message, stack},
# a timeout as {value: {message}}, a string as {value: "..."}. A completed job's output is its
# result, not an error.
last_error = CASE WHEN state = 'cancelled' THEN 'cancelled (boss.cancel); boss.resume() runs it again'
    WHEN state IN ('retry', 'failed', 'active') THEN COALESCE(output->>'message',
        output->'value'->>'message',
        CASE WHEN jsonb_typeof(output->'value') = 'string' THEN output->>'value' END) END

# What boss.retry(name, id) runs, fenced to a job that is still failed.
replay = UPDATE pgboss.job SET state = 'retry', retry_limit = retry_limit + 1
    WHERE id = CAST(:event_id AS uuid) AND state = 'failed'

detect = SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('pgboss.job')
    AND attname = 'retry_limit' AND NOT attisdropped

# No pg-boss action closes a failed job and keeps it: resolve is refused with this.
resolve_unavailable = pg-boss has no state that closes a failed job without running it; call
    boss.deleteJob(name, id) from the application to remove it (the row is not kept), or leave it
    for pg-boss's own retention to archive.
