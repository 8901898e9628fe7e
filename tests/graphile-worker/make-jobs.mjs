// A real graphile-worker for tst_profile_cli: graphile-worker migrates its own schema and its
// own worker writes its tables in every state it keeps, so the test can compare the
// graphile-worker profile's counts with what graphile-worker itself did and shows.
//
//   node make-jobs.mjs make URL
//     Migrates graphile_worker, adds 10 "profile_orders" jobs with maxAttempts 2, of which the
//     task rejects n = 0, 3, 6, 9 every time (two attempts each, the second brought forward
//     from its backoff with graphile-worker's rescheduleJobs, then permanently failed) and
//     completes the others (graphile-worker deletes a completed job); 2 jobs with runAt in an
//     hour (scheduled); and one "profile_stuck" job whose task never returns (left locked).
//     Waits until graphile-worker has settled every job it can, prints one JSON line with what
//     the worker reported (its job:success, job:failed and job:start events) and what its own
//     graphile_worker.jobs view holds, and exits without stopping the worker, so the stuck job
//     stays locked.
//   node make-jobs.mjs complete URL JOB_ID
//     Runs a worker for "profile_orders" that completes every job it is given until JOB_ID is
//     gone from graphile_worker.jobs (after a replay), then prints {"runs": N, "gone": true}:
//     N is how many times the task ran for JOB_ID.
//
// graphile-worker is loaded from GRAPHILE_WORKER_DIR (default
// ${XDG_CACHE_HOME:-~/.cache}/outbox-health-bench/graphile-worker), where scripts/bootstrap
// installs graphile-worker@0.17 with npm.
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'

const dir = process.env.GRAPHILE_WORKER_DIR ||
  path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'outbox-health-bench', 'graphile-worker')
const require = createRequire(path.join(dir, 'index.js'))
const { run, makeWorkerUtils, Logger } = require('graphile-worker')
const pg = require('pg')

const TASK = 'profile_orders'
const STUCK = 'profile_stuck'
const SETTLE_LIMIT_MS = 60000
const quiet = new Logger(() => () => {})

const [mode, url, jobId] = process.argv.slice(2)

function die (message) {
  process.stderr.write(`make-jobs: ${message}\n`)
  process.exit(2)
}

if (!url || (mode !== 'make' && mode !== 'complete') || (mode === 'complete' && !jobId)) {
  die('usage: make-jobs.mjs make URL | make-jobs.mjs complete URL JOB_ID')
}

const pool = new pg.Pool({ connectionString: url, max: 2 })

async function rows (sql, params = []) {
  return (await pool.query(sql, params)).rows
}

// graphile-worker settles asynchronously; poll its view (the test itself never waits on a timer).
async function until (condition, what) {
  const started = Date.now()
  while (!(await condition())) {
    if (Date.now() - started > SETTLE_LIMIT_MS) die(`graphile-worker did not settle within ${SETTLE_LIMIT_MS} ms: ${what}`)
    await new Promise(resolve => setTimeout(resolve, 50))
  }
}

function startWorker (taskList) {
  return run({ connectionString: url, concurrency: 4, pollInterval: 100, noHandleSignals: true, logger: quiet, taskList })
}

async function make () {
  const utils = await makeWorkerUtils({ connectionString: url, logger: quiet })
  await utils.migrate()
  const rejected = new Set([0, 3, 6, 9])
  for (let n = 0; n < 10; ++n) await utils.addJob(TASK, { n }, { maxAttempts: 2 })
  const inAnHour = new Date(Date.now() + 3600 * 1000)
  for (let n = 100; n < 102; ++n) await utils.addJob(TASK, { n }, { maxAttempts: 2, runAt: inAnHour })
  await utils.addJob(STUCK, { n: 200 })

  const seen = { succeeded: 0, permanently_failed: [], started_stuck: 0 }
  const runner = await startWorker({
    [TASK]: async payload => {
      if (rejected.has(payload.n)) throw new Error(`rejected ${payload.n}`)
    },
    [STUCK]: () => new Promise(() => {})
  })
  runner.events.on('job:success', ({ job }) => { if (job.task_identifier === TASK) ++seen.succeeded })
  runner.events.on('job:failed', ({ job }) => { seen.permanently_failed.push(String(job.id)) })
  runner.events.on('job:start', ({ job }) => { if (job.task_identifier === STUCK) ++seen.started_stuck })

  // Settled: 6 completed (deleted), 4 permanently failed, 2 scheduled, the stuck one locked.
  // A failed attempt's retry waits exp(attempts) s (2.7 s after the first); graphile-worker's
  // own rescheduleJobs brings a retry that is waiting out that backoff forward to now, so the
  // worker runs the second attempt at once.
  await until(async () => {
    const waiting = await rows(`SELECT id::text AS id FROM graphile_worker.jobs
                                 WHERE task_identifier = $1 AND attempts > 0 AND attempts < max_attempts
                                   AND locked_at IS NULL AND run_at > now()`, [TASK])
    if (waiting.length > 0) await utils.rescheduleJobs(waiting.map(job => job.id), { runAt: new Date() })
    const [row] = await rows(`SELECT count(*) FILTER (WHERE task_identifier = $1)::int AS kept,
                                     count(*) FILTER (WHERE task_identifier = $1 AND attempts >= max_attempts
                                                        AND locked_at IS NULL)::int AS failed,
                                     count(*) FILTER (WHERE task_identifier = $2 AND locked_at IS NOT NULL)::int AS stuck
                                FROM graphile_worker.jobs`, [TASK, STUCK])
    return row.kept === 6 && row.failed === 4 && row.stuck === 1 && seen.succeeded === 6
  }, 'jobs still running')

  // What graphile-worker's own view shows.
  const [view] = await rows(`SELECT count(*)::int AS total,
                                    count(*) FILTER (WHERE locked_at IS NOT NULL)::int AS locked,
                                    count(*) FILTER (WHERE locked_at IS NULL AND attempts >= max_attempts)::int AS permanently_failed,
                                    count(*) FILTER (WHERE locked_at IS NULL AND attempts < max_attempts
                                                       AND run_at > now())::int AS scheduled,
                                    count(*) FILTER (WHERE locked_at IS NULL AND attempts < max_attempts
                                                       AND run_at <= now())::int AS waiting
                               FROM graphile_worker.jobs`)
  const failed = await rows(`SELECT id, attempts, max_attempts, last_error
                               FROM graphile_worker.jobs WHERE attempts >= max_attempts ORDER BY id`)
  const [now] = await rows('SELECT floor(extract(epoch FROM now()) * 1000)::bigint::text AS ms')
  await utils.release()
  process.stdout.write(JSON.stringify({ now_ms: Number(now.ms), events: seen, view, failed }) + '\n')
  process.exit(0) // no runner.stop(): the stuck job must stay locked
}

async function complete () {
  let runs = 0
  const runner = await startWorker({
    [TASK]: async (payload, helpers) => { if (String(helpers.job.id) === jobId) ++runs }
  })
  await until(async () => (await rows('SELECT 1 FROM graphile_worker.jobs WHERE id = $1', [jobId])).length === 0,
    `job ${jobId} still in graphile_worker.jobs`)
  await runner.stop()
  await pool.end()
  process.stdout.write(JSON.stringify({ runs, gone: true }) + '\n')
  process.exit(0)
}

try {
  await (mode === 'make' ? make() : complete())
} catch (error) {
  die(error.message)
}
