# graphile-worker (npm graphile-worker 0.15 to 0.17, migrations 000011 to 000019): one row per
# job in graphile_worker._private_jobs (the library's public graphile_worker.jobs view joins it
# to _private_tasks and _private_job_queues). Source: graphile-worker 0.17.3,
#   sql/000011.sql      _private_jobs (id bigint, job_queue_id, task_id, payload json, priority,
#                       run_at, attempts, max_attempts (default 25), last_error, created_at,
#                       updated_at, key, locked_at, locked_by, revision, flags,
#                       is_available = locked_at IS NULL AND attempts < max_attempts),
#                       _private_tasks (id, identifier), _private_job_queues
#   dist/sql/getJobs.js a fetch: attempts + 1, locked_at = now(), locked_by = the worker pool
#   dist/sql/failJobs.js a failure: last_error = the error's message (no stack), unlocked,
#                       run_at = greatest(now(), run_at) + exp(least(attempts, 10)) seconds
#   dist/sql/completeJobs.js  a success deletes the job: completed jobs are never kept
#   dist/sql/resetLockedAt.js a lock older than 4 hours is released (the lease)
#   permanently_fail_jobs(ids), remove_job(key) on a locked job: attempts = max_attempts
# A job whose attempts reached max_attempts while unlocked is never fetched again: DEAD. Jobs
# in a queue (job_queue_id) run one at a time; a job waiting for its queue shows as due.
# graphile-worker runs on PostgreSQL only.
name = graphile-worker
description = graphile-worker jobs (graphile_worker._private_jobs); completed jobs are deleted by the library, so DELIVERED is not available
engines = postgresql
from = graphile_worker._private_jobs AS jobs
statuses = PENDING, DEAD

event_id = jobs.id::text
event_type = (SELECT tasks.identifier FROM graphile_worker._private_tasks AS tasks
    WHERE tasks.id = jobs.task_id)
aggregate_type = unavailable
aggregate_id = jobs.key
payload = jobs.payload::text
status = CASE WHEN jobs.locked_at IS NULL AND jobs.attempts >= jobs.max_attempts THEN 'DEAD'
    ELSE 'PENDING' END
# attempts counts fetches: a locked job's current attempt has not failed (yet).
failures = CASE WHEN jobs.locked_at IS NOT NULL THEN GREATEST(jobs.attempts - 1, 0)
    ELSE jobs.attempts END
next_attempt_at = FLOOR(EXTRACT(EPOCH FROM jobs.run_at) * 1000)::bigint
claim_token = CASE WHEN jobs.locked_at IS NOT NULL THEN jobs.locked_by END
lease_until = CASE WHEN jobs.locked_at IS NOT NULL
    THEN FLOOR(EXTRACT(EPOCH FROM jobs.locked_at + interval '4 hours') * 1000)::bigint END
created_at = FLOOR(EXTRACT(EPOCH FROM jobs.created_at) * 1000)::bigint
delivered_at = unavailable
last_error_category = unavailable
last_error = jobs.last_error
# The job's own limit; reschedule_jobs raises it. graphile-worker keeps the last error only.
attempt_limit = jobs.max_attempts

# What graphile_worker.reschedule_jobs(ARRAY[id], run_at := now, max_attempts := attempts + 1)
# does, fenced to a job that is still permanently failed and unlocked: one more attempt, due at
# the replay's now. A worker fetches it at its next poll (the UPDATE sends no NOTIFY).
replay = UPDATE graphile_worker._private_jobs SET max_attempts = attempts + 1,
    run_at = to_timestamp(CAST(:now AS bigint) / 1000.0), updated_at = now()
    WHERE id = CAST(:event_id AS bigint) AND locked_at IS NULL AND attempts >= max_attempts

detect = SELECT 1 FROM pg_attribute
    WHERE attrelid = to_regclass('graphile_worker._private_jobs')
    AND attname = 'is_available' AND NOT attisdropped

resolve_unavailable = graphile-worker keeps no finished jobs (a job that succeeds is deleted),
    so no state closes a failed job and keeps it; run SELECT graphile_worker.complete_jobs(ARRAY[id])
    to delete it, or leave it: a permanently failed job is never fetched again.
