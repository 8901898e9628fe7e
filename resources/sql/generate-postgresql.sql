-- outboxctl generate on PostgreSQL: events number first to last of a synthetic outbox, and
-- their attempt rows, in one statement computed on the server (nothing but the parameters
-- crosses the wire). The same mix as models/simulation/syntheticevent.cpp, the SQLite path: keep the two
-- in step. Every draw is hashint8extended(n, seed * 8 + stream), so a chunk depends only on
-- the seed and its numbers, whatever the chunking.
-- Comment lines are removed before the statement is prepared (Qt reads a colon followed by a
-- letter as a placeholder, even in a comment).
WITH p AS (
    SELECT CAST(:first AS bigint) AS first_n, CAST(:last AS bigint) AS last_n,
           CAST(:count AS bigint) AS count_n, CAST(:now AS bigint) AS now_ms,
           CAST(:seed AS bigint) AS seed, CAST(:seed_hex AS text) AS seed_hex,
           CAST(:payload_format AS text) AS payload_format,
           CAST(:transient AS text[]) AS transient, CAST(:permanent AS text[]) AS permanent,
           CAST(:aggregates AS text[]) AS aggregates, CAST(:types AS text[]) AS types,
           CAST(604800000 AS bigint) AS window_ms, CAST(120000 AS bigint) AS settle_ms,
           CAST(300000 AS bigint) AS lease_ms
),
drawn AS (
    SELECT n,
           (hashint8extended(n, p.seed * 8 + 1) & 9223372036854775807) % 10000 AS r_kind,
           (hashint8extended(n, p.seed * 8 + 2) & 9223372036854775807) % 100 AS r_fail,
           hashint8extended(n, p.seed * 8 + 3) & 9223372036854775807 AS r_text,
           hashint8extended(n, p.seed * 8 + 4) & 9223372036854775807 AS r_time
    FROM p, generate_series(p.first_n, p.last_n) AS n
),
-- 97% delivered; 0.5% each due, scheduled, in flight, lease expired; 0.7% + 0.3% dead.
kinds AS (
    SELECT d.*,
           CASE WHEN r_kind < 9700 THEN 'delivered' WHEN r_kind < 9750 THEN 'due'
                WHEN r_kind < 9800 THEN 'scheduled' WHEN r_kind < 9850 THEN 'in_flight'
                WHEN r_kind < 9900 THEN 'lease_expired' WHEN r_kind < 9970 THEN 'dead_transient'
                ELSE 'dead_permanent' END AS kind
    FROM drawn d
),
shaped AS (
    SELECT k.*,
           CASE kind
               WHEN 'delivered' THEN CASE WHEN r_fail < 84 THEN 0 WHEN r_fail < 96 THEN 1 ELSE 2 END
               WHEN 'due' THEN CASE WHEN r_fail < 50 THEN 0 WHEN r_fail < 80 THEN 1 ELSE 2 END
               WHEN 'scheduled' THEN CASE WHEN r_fail < 60 THEN 1 ELSE 2 END
               WHEN 'dead_transient' THEN 3
               WHEN 'dead_permanent' THEN CAST(r_fail % 3 + 1 AS integer)
               ELSE CASE WHEN r_fail < 70 THEN 0 WHEN r_fail < 90 THEN 1 ELSE 2 END
           END AS failures,
           kind IN ('delivered', 'dead_transient', 'dead_permanent') AS settled,
           kind IN ('in_flight', 'lease_expired') AS claimed
    FROM kinds k
),
-- Settled events spread evenly over the window in creation order; PENDING ages skew young.
timed AS (
    SELECT s.*,
           CASE WHEN settled
                THEN p.now_ms - p.window_ms + (n - 1) * (p.window_ms - p.settle_ms) / p.count_n
                     + r_time % 1000
                ELSE p.now_ms - CAST(floor(p.window_ms
                     * power(CAST(r_time % 1000000 AS double precision) / 1000000, 3)) AS bigint)
           END AS created_at
    FROM shaped s, p
),
counted AS (
    SELECT t.*,
           (p.now_ms - created_at) / (failures + 2) AS step,
           failures + CASE WHEN kind = 'delivered' OR claimed THEN 1 ELSE 0 END AS attempt_count,
           CAST(r_text % cardinality(p.types) + 1 AS integer) AS type_index
    FROM timed t, p
),
-- The claim of a settled event's attempt k comes after the retry delays 10 s, then 20 s.
events AS (
    SELECT c.*,
           CASE WHEN kind = 'scheduled' THEN p.now_ms + 1000 + (r_time / 1000000) % 600000
                WHEN settled AND attempt_count <= 1 THEN created_at
                WHEN settled THEN created_at + 50 + (r_time / 1000) % 400 + (attempt_count - 1) * 1000
                     + 10000 * ((CAST(1 AS bigint) << (attempt_count - 1)) - 1)
                WHEN failures = 0 THEN created_at
                ELSE created_at + step * (failures + 1)
           END AS next_attempt_at,
           CASE kind WHEN 'in_flight' THEN p.now_ms - LEAST((r_time / 1000000) % 30000, step)
                     WHEN 'lease_expired' THEN created_at + step * (failures + 1)
           END AS open_claim,
           CASE WHEN kind = 'dead_permanent' THEN 'PERMANENT' WHEN failures > 0 THEN 'TRANSIENT'
           END AS last_error_category,
           CASE WHEN kind = 'dead_permanent'
                THEN p.permanent[CAST(r_text % cardinality(p.permanent) + 1 AS integer)]
                WHEN failures > 0
                THEN p.transient[CAST((r_text + failures) % cardinality(p.transient) + 1 AS integer)]
           END AS last_error
    FROM counted c, p
),
inserted AS (
    INSERT INTO delivery_outbox (event_id, aggregate_type, aggregate_id, event_type, payload,
        status, failures, next_attempt_at, claim_token, lease_until, created_at, delivered_at,
        last_error_category, last_error)
    SELECT 'GEN-' || lpad(CAST(n AS text), 10, '0'),
           p.aggregates[type_index],
           upper(p.aggregates[type_index]) || '-' || CAST((n + 2) / 3 AS text),
           p.types[type_index],
           format(p.payload_format, n, r_text % 100000, 1 + r_text / 100000 % 5,
                  1 + r_text / 1000000 % 3, 100 + r_text / 10000000 % 99900, 1 + r_text / 7 % 4,
                  1 + r_text / 13 % 200),
           CASE WHEN kind = 'delivered' THEN 'DELIVERED' WHEN settled THEN 'DEAD' ELSE 'PENDING' END,
           failures,
           next_attempt_at,
           CASE WHEN claimed THEN format('%s-%s-%s', p.seed_hex, to_hex(n), failures + 1) END,
           CASE kind WHEN 'in_flight' THEN open_claim + p.lease_ms
                     WHEN 'lease_expired' THEN LEAST(open_claim + p.lease_ms, p.now_ms) END,
           created_at,
           CASE WHEN kind = 'delivered'
                THEN created_at + 50 + (r_time / 1000) % 400 + failures * 1000
                     + 10000 * ((CAST(1 AS bigint) << failures) - 1)
                     + 5 + (r_time / 1000000 + 7 * (failures + 1)) % 300 END,
           last_error_category,
           last_error
    FROM events, p
),
attempts AS (
    SELECT e.*, k,
           k = failures AND kind IN ('dead_transient', 'dead_permanent') AS last_dead,
           CASE WHEN settled
                THEN created_at + 50 + (r_time / 1000) % 400 + (k - 1) * 1000
                     + 10000 * ((CAST(1 AS bigint) << (k - 1)) - 1)
                WHEN k <= failures THEN created_at + step * k
                ELSE open_claim
           END AS claimed_at
    FROM events e, generate_series(1, e.attempt_count) AS k
)
INSERT INTO delivery_attempt (event_id, attempt_no, worker, claim_token, claimed_at, finished_at,
    outcome, error_category, error_message, consumer_result, next_attempt_at)
SELECT 'GEN-' || lpad(CAST(n AS text), 10, '0'),
       k,
       'relay-' || CAST(1 + (r_text / 7 + k) % 4 AS text),
       format('%s-%s-%s', p.seed_hex, to_hex(n), k),
       claimed_at,
       CASE WHEN k > failures AND kind <> 'delivered' THEN NULL
            WHEN settled THEN claimed_at + 5 + (r_time / 1000000 + 7 * k) % 300
            ELSE claimed_at + step / 4 END,
       CASE WHEN last_dead THEN 'DEAD' WHEN k <= failures THEN 'RETRY'
            WHEN kind = 'delivered' THEN 'DELIVERED' END,
       CASE WHEN last_dead THEN last_error_category WHEN k <= failures THEN 'TRANSIENT' END,
       CASE WHEN last_dead THEN last_error
            WHEN k <= failures THEN p.transient[CAST((r_text + k) % cardinality(p.transient) + 1 AS integer)] END,
       CASE WHEN k > failures AND kind = 'delivered'
            THEN CASE WHEN failures > 0 AND r_text % 10 = 0 THEN 'DUPLICATE' ELSE 'APPLIED' END
       END,
       CASE WHEN k > failures OR last_dead THEN NULL
            WHEN kind = 'scheduled' AND k = failures THEN next_attempt_at
            WHEN settled THEN created_at + 50 + (r_time / 1000) % 400 + k * 1000
                 + 10000 * ((CAST(1 AS bigint) << k) - 1)
            ELSE created_at + step * (k + 1) END
FROM attempts, p
