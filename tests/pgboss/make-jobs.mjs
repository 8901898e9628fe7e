// A real pg-boss v10 for tst_profiles: it makes pg-boss write its own tables in every state,
// so the test can compare the pg-boss profile's counts with what pg-boss itself reports.
//
//   node make-jobs.mjs make URL
//     Creates the queue "profile-orders" (retryLimit 2, retryDelay 0) with 10 jobs, of which
//     the handler rejects n = 0, 3, 6, 9 every time (three attempts each, then 'failed') and
//     completes the others; 2 jobs sent with startAfter 1 h (scheduled); and the queue
//     "profile-stuck" with one job whose handler never returns (left 'active'). Waits until
//     pg-boss has settled every job it can, prints one JSON line with pg-boss's own view
//     (getQueueSize per queue, jobs per state from pgboss.job, the failed jobs, the database's
//     now in ms) and exits without stopping pg-boss, so the stuck job stays active.
//   node make-jobs.mjs complete URL JOB_ID
//     Runs a worker on "profile-orders" that completes every job until JOB_ID is completed
//     (after a replay), then prints {"state":..,"retry_count":..,"retry_limit":..}.
//
// pg-boss is loaded from PGBOSS_DIR (default ${XDG_CACHE_HOME:-~/.cache}/outbox-health-bench/pgboss),
// where scripts/bootstrap (and tests/bench/relay-throughput) install pg-boss@10 with npm.
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'

const dir = process.env.PGBOSS_DIR ||
  path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'outbox-health-bench', 'pgboss')
const require = createRequire(path.join(dir, 'index.js'))
const PgBoss = require('pg-boss')
const pg = require('pg')

const QUEUE = 'profile-orders'
const STUCK = 'profile-stuck'
const SETTLE_LIMIT_MS = 60000

const [mode, url, jobId] = process.argv.slice(2)

function die (message) {
  process.stderr.write(`make-jobs: ${message}\n`)
  process.exit(2)
}

if (!url || (mode !== 'make' && mode !== 'complete') || (mode === 'complete' && !jobId)) {
  die('usage: make-jobs.mjs make URL | make-jobs.mjs complete URL JOB_ID')
}

const boss = new PgBoss({ connectionString: url, schedule: false, supervise: false })
boss.on('error', error => die(`pg-boss error: ${error.message}`))
const pool = new pg.Pool({ connectionString: url, max: 2 })

async function rows (sql, params = []) {
  return (await pool.query(sql, params)).rows
}

// pg-boss settles asynchronously; poll its table (the test itself never waits on a timer).
async function until (condition, what) {
  const started = Date.now()
  while (!(await condition())) {
    if (Date.now() - started > SETTLE_LIMIT_MS) die(`pg-boss did not settle within ${SETTLE_LIMIT_MS} ms: ${what}`)
    await new Promise(resolve => setTimeout(resolve, 50))
  }
}

// v10's worker waits out its polling interval after every fetch; notifyWorker skips that wait
// so that a busy worker fetches again at once (see tests/bench/pgboss-bench.mjs).
async function startWorker (queue, handler) {
  const worker = { id: null }
  worker.id = await boss.work(queue, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => {
    if (worker.id) boss.notifyWorker(worker.id)
    return handler(job)
  })
  return worker.id
}

async function make () {
  await boss.start()
  await boss.createQueue(QUEUE, { retryLimit: 2, retryDelay: 0 })
  await boss.createQueue(STUCK, { retryLimit: 2, expireInSeconds: 900 })

  const rejected = new Set([0, 3, 6, 9])
  for (let n = 0; n < 10; ++n) await boss.send(QUEUE, { n })
  for (let n = 100; n < 102; ++n) await boss.send(QUEUE, { n }, { startAfter: 3600 })
  await boss.send(STUCK, { n: 200 })

  await startWorker(QUEUE, async job => {
    if (rejected.has(job.data.n)) throw new Error(`rejected ${job.data.n}`)
    return { ok: true }
  })
  await startWorker(STUCK, () => new Promise(() => {}))

  await until(async () => {
    const [row] = await rows(`SELECT count(*) FILTER (WHERE name = $1 AND state IN ('completed', 'failed'))::int AS settled,
                                     count(*) FILTER (WHERE name = $2 AND state = 'active')::int AS stuck
                                FROM pgboss.job`, [QUEUE, STUCK])
    return row.settled === 10 && row.stuck === 1
  }, 'jobs still running')

  const states = {}
  for (const row of await rows('SELECT state::text AS state, count(*)::int AS n FROM pgboss.job GROUP BY 1')) {
    states[row.state] = row.n
  }
  const failed = await rows(`SELECT id::text AS id, retry_count, output->>'message' AS message
                               FROM pgboss.job WHERE state = 'failed' ORDER BY id`)
  const [now] = await rows('SELECT floor(extract(epoch FROM now()) * 1000)::bigint::text AS ms')
  process.stdout.write(JSON.stringify({
    now_ms: Number(now.ms),
    queue_size: { [QUEUE]: await boss.getQueueSize(QUEUE), [STUCK]: await boss.getQueueSize(STUCK) },
    active: await boss.getQueueSize(STUCK, { before: 'completed' }) - await boss.getQueueSize(STUCK),
    states,
    failed
  }) + '\n')
  process.exit(0) // no boss.stop(): it would fail the stuck job, which must stay active
}

async function complete () {
  await boss.start()
  await startWorker(QUEUE, async () => ({ ok: true }))
  let job = null
  await until(async () => {
    [job] = await rows('SELECT state::text AS state, retry_count, retry_limit FROM pgboss.job WHERE id = $1', [jobId])
    return job && job.state !== 'retry' && job.state !== 'active' && job.state !== 'created'
  }, `job ${jobId} not finished`)
  process.stdout.write(JSON.stringify(job) + '\n')
  await boss.stop({ graceful: true, wait: true, timeout: 5000 })
  await pool.end()
  process.exit(0)
}

try {
  await (mode === 'make' ? make() : complete())
} catch (error) {
  die(error.message)
}
