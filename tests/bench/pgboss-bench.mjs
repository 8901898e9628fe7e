// pg-boss v10 side of tests/bench/relay-throughput: the same consumer work as the Outbox
// Health relay (one ledger-insert + stock-update statement per event), driven by pg-boss
// workers instead of the relay.
//
//   node pgboss-bench.mjs CONNECTION_STRING JOBS CONCURRENCY BATCH
//   (or PGBOSS_BENCH_URL, PGBOSS_BENCH_JOBS, PGBOSS_BENCH_CONCURRENCY, PGBOSS_BENCH_BATCH)
//
// Run it from a directory whose node_modules holds pg-boss@10 (ESM resolves imports from
// the script's own location), against a fresh database. Prints one JSON line:
//   {"jobs":..,"concurrency":..,"batch":..,"elapsed_ms":..,"jobs_per_s":..}
//
// pg-boss v10 facts this relies on (node_modules/pg-boss/src):
// - jobs can only be inserted into a queue that exists (insert joins pgboss.queue and
//   silently drops jobs of unknown queues), hence createQueue first;
// - insert(jobs[]) takes objects with their own `name`, inserts them in one statement;
// - work(name, { batchSize, pollingIntervalSeconds }, handler) starts ONE polling worker
//   (v10 has no teamSize), so concurrency = that many work() calls; the handler gets an
//   array of jobs; when it resolves, pg-boss completes them (without awaiting the complete);
// - the worker loop waits (interval - duration) after EVERY fetch, jobs or not, whenever
//   that is more than 100 ms. Its documented notifyWorker(id) skips that wait, so the
//   handler calls it when it had jobs: a busy worker fetches again at once, an idle one
//   polls every 0.5 s (v10's minimum interval).
import PgBoss from 'pg-boss'
import pg from 'pg'

const args = process.argv.slice(2)
const url = args[0] || process.env.PGBOSS_BENCH_URL
const jobs = Number.parseInt(args[1] || process.env.PGBOSS_BENCH_JOBS || '10000', 10)
const concurrency = Number.parseInt(args[2] || process.env.PGBOSS_BENCH_CONCURRENCY || '1', 10)
const batch = Number.parseInt(args[3] || process.env.PGBOSS_BENCH_BATCH || '1', 10)
const plainLoop = process.env.PGBOSS_BENCH_PLAIN_LOOP === '1'
const stallLimitMs = Number.parseInt(process.env.PGBOSS_BENCH_STALL_MS || '60000', 10)

function die (message) {
  process.stderr.write(`pgboss-bench: ${message}\n`)
  process.exit(2)
}

if (!url) die('usage: pgboss-bench.mjs CONNECTION_STRING JOBS CONCURRENCY BATCH')
for (const [name, value] of [['jobs', jobs], ['concurrency', concurrency], ['batch', batch]]) {
  if (!Number.isInteger(value) || value < 1) die(`${name} must be a whole number of at least 1`)
}

const queue = 'outbox-bench'
const skus = ['SKU-1', 'SKU-2', 'SKU-3', 'SKU-4', 'SKU-5']
const apply = `WITH ledger AS (INSERT INTO consumer_ledger (event_id, applied_at) VALUES ($1, $2)
                 ON CONFLICT (event_id) DO NOTHING RETURNING event_id),
               stock AS (UPDATE consumer_stock SET quantity = quantity - $3
                 WHERE sku = $4 AND EXISTS (SELECT 1 FROM ledger) RETURNING sku)
               SELECT 1`

// Same defaults as the relay's own run: no cron scheduling, no maintenance in the middle.
const boss = new PgBoss({ connectionString: url, schedule: false, supervise: false })
let bossError = null
boss.on('error', error => {
  bossError = error
  process.stderr.write(`pgboss-bench: pg-boss error: ${error.message}\n`)
})

// The consumer's own connections: one per worker, as the relay's workers have.
const pool = new pg.Pool({ connectionString: url, max: concurrency + 1 })

try {
  await boss.start()
  await boss.createQueue(queue)

  await pool.query(`CREATE TABLE IF NOT EXISTS consumer_ledger (event_id text PRIMARY KEY, applied_at bigint NOT NULL)`)
  await pool.query(`CREATE TABLE IF NOT EXISTS consumer_stock (sku text PRIMARY KEY, quantity int NOT NULL)`)
  for (const sku of skus) {
    await pool.query('INSERT INTO consumer_stock (sku, quantity) VALUES ($1, 1000000) ON CONFLICT (sku) DO NOTHING', [sku])
  }

  // Jobs up front, like the relay's --produce, 1000 per insert.
  const runId = Date.now().toString(36)
  for (let done = 0; done < jobs;) {
    const chunk = []
    for (let i = 0; i < 1000 && done < jobs; ++i, ++done) {
      chunk.push({
        name: queue,
        data: {
          event_id: `EV-${runId}-${String(done + 1).padStart(6, '0')}`,
          sku: skus[Math.floor(Math.random() * skus.length)],
          quantity: 1 + Math.floor(Math.random() * 3)
        }
      })
    }
    await boss.insert(chunk)
  }
  const queued = await boss.getQueueSize(queue) // created + retry
  if (queued !== jobs) throw new Error(`inserted ${jobs} jobs but the queue holds ${queued}`)

  const countDone = async () => {
    const { rows } = await pool.query(
      `SELECT count(*) FILTER (WHERE state = 'completed') AS completed,
              count(*) FILTER (WHERE state = 'failed') AS failed
         FROM pgboss.job WHERE name = $1`, [queue])
    return { completed: Number(rows[0].completed), failed: Number(rows[0].failed) }
  }

  const started = process.hrtime.bigint()
  for (let w = 0; w < concurrency; ++w) {
    const worker = { id: null }
    worker.id = await boss.work(queue, { batchSize: batch, pollingIntervalSeconds: 0.5 }, async (batchJobs) => {
      const client = await pool.connect()
      try {
        for (const job of batchJobs) {
          const { event_id: eventId, sku, quantity } = job.data
          await client.query(apply, [eventId, Date.now(), quantity, sku])
        }
      } finally {
        client.release()
      }
      // Had jobs: fetch again without waiting out the polling interval
      // (PGBOSS_BENCH_PLAIN_LOOP=1 leaves v10's loop as it is, to see the difference).
      if (worker.id && !plainLoop) boss.notifyWorker(worker.id)
    })
  }

  let last = { completed: 0, failed: 0 }
  let lastProgressAt = Date.now()
  for (;;) {
    await new Promise(resolve => setTimeout(resolve, 100))
    const now = await countDone()
    if (now.completed + now.failed >= jobs) { last = now; break }
    if (now.completed + now.failed > last.completed + last.failed) lastProgressAt = Date.now()
    last = now
    if (Date.now() - lastProgressAt > stallLimitMs) {
      throw new Error(`no progress for ${stallLimitMs} ms (${now.completed} completed, ${now.failed} failed of ${jobs})${bossError ? `; last pg-boss error: ${bossError.message}` : ''}`)
    }
  }
  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6

  if (last.failed > 0) throw new Error(`${last.failed} jobs failed`)
  const { rows } = await pool.query('SELECT count(*) AS n FROM consumer_ledger')
  if (Number(rows[0].n) !== jobs) throw new Error(`consumer ledger holds ${rows[0].n} rows, expected ${jobs}`)

  await boss.stop({ graceful: true, wait: true, timeout: 5000 })
  await pool.end()
  process.stdout.write(JSON.stringify({
    jobs,
    concurrency,
    batch,
    elapsed_ms: Math.round(elapsedMs),
    jobs_per_s: Math.round(jobs / Math.max(elapsedMs, 1) * 1000 * 10) / 10
  }) + '\n')
  process.exit(0)
} catch (error) {
  try { await boss.stop({ graceful: false, wait: true, timeout: 1000 }) } catch {}
  try { await pool.end() } catch {}
  die(error.message)
}
