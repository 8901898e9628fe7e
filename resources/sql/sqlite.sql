-- Native Outbox Health schema for SQLite. Idempotent: every statement is IF NOT EXISTS.
-- Times are integer milliseconds since the epoch (abstract units in the logical-clock simulator).
CREATE TABLE IF NOT EXISTS delivery_outbox (
    event_id TEXT PRIMARY KEY,
    aggregate_type TEXT NOT NULL,
    aggregate_id TEXT NOT NULL,
    event_type TEXT NOT NULL,
    payload TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('PENDING', 'DELIVERED', 'DEAD')),
    failures INTEGER NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    claim_token TEXT,
    lease_until BIGINT,
    created_at BIGINT NOT NULL,
    delivered_at BIGINT,
    last_error_category TEXT,
    last_error TEXT
);
CREATE TABLE IF NOT EXISTS delivery_attempt (
    attempt_id INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id TEXT NOT NULL REFERENCES delivery_outbox (event_id),
    attempt_no INTEGER NOT NULL,
    worker TEXT NOT NULL,
    claim_token TEXT NOT NULL,
    claimed_at BIGINT NOT NULL,
    finished_at BIGINT,
    outcome TEXT,
    error_category TEXT,
    error_message TEXT,
    consumer_result TEXT,
    next_attempt_at BIGINT
);
CREATE TABLE IF NOT EXISTS consumer_ledger (
    event_id TEXT PRIMARY KEY,
    applied_at BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS consumer_stock (
    sku TEXT PRIMARY KEY,
    quantity INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS replay_log (
    replay_id INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id TEXT NOT NULL REFERENCES delivery_outbox (event_id),
    replayed_at BIGINT NOT NULL,
    operator TEXT NOT NULL,
    reason TEXT NOT NULL,
    reset_failures BOOLEAN NOT NULL,
    failures_before INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS outbox_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
-- The relay looks for due PENDING rows; the dashboard counts the small states.
CREATE INDEX IF NOT EXISTS delivery_outbox_pending_due
    ON delivery_outbox (next_attempt_at) WHERE status = 'PENDING';
CREATE INDEX IF NOT EXISTS delivery_outbox_dead
    ON delivery_outbox (created_at) WHERE status = 'DEAD';
CREATE INDEX IF NOT EXISTS delivery_attempt_event
    ON delivery_attempt (event_id, attempt_no);
CREATE INDEX IF NOT EXISTS replay_log_event
    ON replay_log (event_id);
