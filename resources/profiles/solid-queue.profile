# Solid Queue 1.x (Rails, gem solid_queue): one row per job in solid_queue_jobs; its state is
# which execution table holds the job. Source: rails/solid_queue,
#   lib/generators/solid_queue/install/templates/db/queue_schema.rb  solid_queue_jobs (id,
#                       queue_name, class_name, arguments, priority, active_job_id,
#                       scheduled_at, finished_at, concurrency_key, created_at, updated_at),
#                       solid_queue_ready_executions, _scheduled_executions,
#                       _claimed_executions (job_id, process_id), _blocked_executions,
#                       _failed_executions (job_id, error), solid_queue_processes (id, name,
#                       last_heartbeat_at); Rails datetime: timestamp(6) without time zone on
#                       PostgreSQL, DATETIME(6) on MySQL, text on SQLite, all in UTC
#   app/models/solid_queue/job/executable.rb  ready, scheduled (scheduled_at later), blocked
#                       (waiting for its concurrency_key's semaphore), claimed (a worker
#                       process runs it), failed; finished! sets finished_at (finished jobs
#                       kept while preserve_finished_jobs, then cleared)
#   app/models/solid_queue/failed_execution.rb  error = JSON {exception_class, message,
#                       backtrace}; retry = job.prepare_for_execution and destroy! (two writes)
# Solid Queue never retries a job itself: Active Job's retry_on enqueues a new job whose
# arguments carry "executions" (the attempts before it); the attempt that raised finishes.
# A claim lasts while its process's heartbeat is younger than process_alive_threshold (5 minutes
# by default; the supervisor then releases it): the lease below uses that default.
name = solid-queue
description = Solid Queue jobs (solid_queue_jobs and its execution tables); failed executions count as DEAD
engines = postgresql, mysql, sqlite
from = solid_queue_jobs AS jobs

postgresql.event_id = jobs.id::text
mysql.event_id = CAST(jobs.id AS CHAR)
sqlite.event_id = CAST(jobs.id AS TEXT)
event_type = jobs.class_name
aggregate_type = unavailable
aggregate_id = jobs.concurrency_key
payload = jobs.arguments
status = CASE WHEN jobs.finished_at IS NOT NULL THEN 'DELIVERED'
    WHEN EXISTS (SELECT 1 FROM solid_queue_failed_executions AS f WHERE f.job_id = jobs.id)
    THEN 'DEAD' ELSE 'PENDING' END
# Active Job's "executions": the attempts before this job, all failed; a failed job one more.
postgresql.failures = COALESCE(CAST(CAST(jobs.arguments AS json)->>'executions' AS integer), 0)
    + CASE WHEN EXISTS (SELECT 1 FROM solid_queue_failed_executions AS f
        WHERE f.job_id = jobs.id) THEN 1 ELSE 0 END
mysql.failures = COALESCE(CAST(JSON_EXTRACT(jobs.arguments, '$.executions') AS SIGNED), 0)
    + CASE WHEN EXISTS (SELECT 1 FROM solid_queue_failed_executions AS f
        WHERE f.job_id = jobs.id) THEN 1 ELSE 0 END
sqlite.failures = COALESCE(CAST(json_extract(jobs.arguments, '$.executions') AS INTEGER), 0)
    + CASE WHEN EXISTS (SELECT 1 FROM solid_queue_failed_executions AS f
        WHERE f.job_id = jobs.id) THEN 1 ELSE 0 END
postgresql.next_attempt_at = FLOOR(EXTRACT(EPOCH FROM COALESCE(jobs.scheduled_at, jobs.created_at))
    * 1000)::bigint
mysql.next_attempt_at = FLOOR(UNIX_TIMESTAMP(COALESCE(jobs.scheduled_at, jobs.created_at)) * 1000)
sqlite.next_attempt_at = CAST(strftime('%s', COALESCE(jobs.scheduled_at, jobs.created_at)) AS INTEGER)
    * 1000 + CAST(substr(strftime('%f', COALESCE(jobs.scheduled_at, jobs.created_at)), 4, 3)
    AS INTEGER)
# A claimed job: the name of the process that runs it ('orphaned' when that process is gone).
postgresql.claim_token = (SELECT COALESCE(p.name, 'orphaned')
    FROM solid_queue_claimed_executions AS c
    LEFT JOIN solid_queue_processes AS p ON p.id = c.process_id WHERE c.job_id = jobs.id)
mysql.claim_token = (SELECT COALESCE(p.name, 'orphaned')
    FROM solid_queue_claimed_executions AS c
    LEFT JOIN solid_queue_processes AS p ON p.id = c.process_id WHERE c.job_id = jobs.id)
sqlite.claim_token = (SELECT COALESCE(p.name, 'orphaned')
    FROM solid_queue_claimed_executions AS c
    LEFT JOIN solid_queue_processes AS p ON p.id = c.process_id WHERE c.job_id = jobs.id)
# The process's last heartbeat + 5 minutes; a claim whose process is gone has run out.
postgresql.lease_until = (SELECT FLOOR(EXTRACT(EPOCH FROM COALESCE(
        p.last_heartbeat_at + interval '5 minutes', c.created_at)) * 1000)::bigint
    FROM solid_queue_claimed_executions AS c
    LEFT JOIN solid_queue_processes AS p ON p.id = c.process_id WHERE c.job_id = jobs.id)
mysql.lease_until = (SELECT FLOOR(UNIX_TIMESTAMP(COALESCE(
        p.last_heartbeat_at + INTERVAL 5 MINUTE, c.created_at)) * 1000)
    FROM solid_queue_claimed_executions AS c
    LEFT JOIN solid_queue_processes AS p ON p.id = c.process_id WHERE c.job_id = jobs.id)
sqlite.lease_until = (SELECT CAST(strftime('%s', COALESCE(
        datetime(p.last_heartbeat_at, '+5 minutes'), c.created_at)) AS INTEGER) * 1000
        + CAST(substr(strftime('%f', COALESCE(p.last_heartbeat_at, c.created_at)), 4, 3)
        AS INTEGER)
    FROM solid_queue_claimed_executions AS c
    LEFT JOIN solid_queue_processes AS p ON p.id = c.process_id WHERE c.job_id = jobs.id)
postgresql.created_at = FLOOR(EXTRACT(EPOCH FROM jobs.created_at) * 1000)::bigint
mysql.created_at = FLOOR(UNIX_TIMESTAMP(jobs.created_at) * 1000)
sqlite.created_at = CAST(strftime('%s', jobs.created_at) AS INTEGER) * 1000
    + CAST(substr(strftime('%f', jobs.created_at), 4, 3) AS INTEGER)
postgresql.delivered_at = FLOOR(EXTRACT(EPOCH FROM jobs.finished_at) * 1000)::bigint
mysql.delivered_at = FLOOR(UNIX_TIMESTAMP(jobs.finished_at) * 1000)
sqlite.delivered_at = CAST(strftime('%s', jobs.finished_at) AS INTEGER) * 1000
    + CAST(substr(strftime('%f', jobs.finished_at), 4, 3) AS INTEGER)
last_error_category = unavailable
# "ExceptionClass: message" of the failed execution, never its backtrace.
postgresql.last_error = (SELECT (CAST(f.error AS json)->>'exception_class') || ': '
    || (CAST(f.error AS json)->>'message')
    FROM solid_queue_failed_executions AS f WHERE f.job_id = jobs.id)
mysql.last_error = (SELECT CONCAT(JSON_UNQUOTE(JSON_EXTRACT(f.error, '$.exception_class')), ': ',
    JSON_UNQUOTE(JSON_EXTRACT(f.error, '$.message')))
    FROM solid_queue_failed_executions AS f WHERE f.job_id = jobs.id)
sqlite.last_error = (SELECT json_extract(f.error, '$.exception_class') || ': '
    || json_extract(f.error, '$.message')
    FROM solid_queue_failed_executions AS f WHERE f.job_id = jobs.id)

replay_unavailable = Solid Queue retries a failed job with two writes (a new ready or scheduled
    execution, and the failed execution deleted), which no single UPDATE can do: run
    SolidQueue::Job.find(ID).retry from the application (it is FailedExecution#retry), or Retry
    in Mission Control - Jobs.
resolve_unavailable = Solid Queue has no state that closes a failed job and keeps it; discard
    it from the application (SolidQueue::Job.find(ID).discard deletes the job) or with Discard in
    Mission Control - Jobs.

postgresql.detect = SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('solid_queue_jobs')
    AND attname = 'finished_at' AND NOT attisdropped
mysql.detect = SELECT 1 FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()
    AND LOWER(TABLE_NAME) = 'solid_queue_jobs' AND LOWER(COLUMN_NAME) = 'finished_at'
sqlite.detect = SELECT 1 FROM pragma_table_info('solid_queue_jobs') WHERE name = 'finished_at'
