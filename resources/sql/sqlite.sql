-- Native Outbox Health schema for SQLite, version 3 (Schema::CurrentVersion). Idempotent: every
-- statement is IF NOT EXISTS. A version 1 database (no RESOLVED state, no resolve_log) is brought
-- to version 2 by `outboxctl migrate` (models/db/schemamigration.cpp), never by this script; a
-- version 2 database gets version 3's tables (notes, payload revisions) from `outboxctl migrate`.
-- Times are integer milliseconds since the epoch (abstract units in the logical-clock simulator).
CREATE TABLE IF NOT EXISTS delivery_outbox (
    event_id TEXT PRIMARY KEY,
    aggregate_type TEXT NOT NULL,
    aggregate_id TEXT NOT NULL,
    event_type TEXT NOT NULL,
    payload TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('PENDING', 'DELIVERED', 'DEAD', 'RESOLVED')),
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
-- Operator resolutions (version 2): a DEAD event closed without delivery, who and why.
CREATE TABLE IF NOT EXISTS resolve_log (
    resolve_id INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id TEXT NOT NULL REFERENCES delivery_outbox (event_id),
    resolved_at BIGINT NOT NULL,
    operator TEXT NOT NULL,
    reason TEXT NOT NULL,
    failures_before INTEGER NOT NULL
);
-- Operator reopenings: a RESOLVED event put back to DEAD, who and why. `outboxctl init` adds
-- this table to a database made before reopen existed.
CREATE TABLE IF NOT EXISTS reopen_log (
    reopen_id INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id TEXT NOT NULL REFERENCES delivery_outbox (event_id),
    reopened_at BIGINT NOT NULL,
    operator TEXT NOT NULL,
    reason TEXT NOT NULL,
    failures_before INTEGER NOT NULL
);
-- Operator notes and markers (version 3): free text on a DEAD event or on an error group (the
-- signature of the Errors tab), exactly one of the two, with who and when, and an optional marker
-- ('investigating' or 'on-hold'). A cleared note is kept for the audit (cleared_at, cleared_by).
-- No foreign key to delivery_outbox: a note outlives a purge of its event, as an audit record.
CREATE TABLE IF NOT EXISTS operator_note (
    note_id INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id TEXT,
    error_group TEXT,
    operator TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    text TEXT NOT NULL,
    marker TEXT CHECK (marker IN ('investigating', 'on-hold')),
    cleared_at BIGINT,
    cleared_by TEXT,
    CHECK ((event_id IS NULL) <> (error_group IS NULL))
);
-- Edit and replay (version 3): the payload an event had before each operator edit, kept
-- immutable, with the payload the edit set, who, why, when, and whether the redacted values were
-- revealed to the editor. Revision 1 holds the event's original payload.
CREATE TABLE IF NOT EXISTS payload_revision (
    revision_id INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id TEXT NOT NULL REFERENCES delivery_outbox (event_id),
    revision_no INTEGER NOT NULL,
    payload TEXT NOT NULL,
    new_payload TEXT NOT NULL,
    operator TEXT NOT NULL,
    reason TEXT NOT NULL,
    revealed BOOLEAN NOT NULL,
    created_at BIGINT NOT NULL
);
-- The audit of actions through a profile (another library's outbox, whose database has no
-- replay_log): kept here when this database is the team's audit store (--notes-db), one row per
-- event and action. Written 'intended' before the library's row changes and settled ('done',
-- 'skipped', 'failed') after its transaction ends: a row left 'intended' is an action whose end
-- was never recorded (a crash, a lost connection). `outbox` names the profile and its database.
-- `outboxctl init` adds this table to a database made before it existed.
CREATE TABLE IF NOT EXISTS profile_audit (
    audit_id INTEGER PRIMARY KEY AUTOINCREMENT,
    outbox TEXT NOT NULL,
    event_id TEXT NOT NULL,
    action TEXT NOT NULL,
    acted_at BIGINT NOT NULL,
    operator TEXT NOT NULL,
    reason TEXT NOT NULL,
    state_before TEXT NOT NULL,
    state_after TEXT,
    outcome TEXT NOT NULL,
    settled_at BIGINT
);
CREATE TABLE IF NOT EXISTS outbox_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
-- Indexes: each serves a named query; none holds `payload`. The PENDING and DEAD ones are
-- partial, so they stay as small as those states (about 3% of a healthy outbox) however large
-- the table grows. On a big live table, create them first with CREATE INDEX CONCURRENTLY under
-- the same names: `outboxctl init` then skips them.
--
-- PENDING rows: the relay claims in next_attempt_at order; the trailing key columns let the health
-- snapshot count due / scheduled / in flight / lease expired and bucket ages, failures and
-- error categories from the index alone.
CREATE INDEX IF NOT EXISTS delivery_outbox_pending
    ON delivery_outbox (next_attempt_at, claim_token, lease_until, created_at, failures,
        last_error_category, status)
    WHERE status = 'PENDING';
-- Superseded by delivery_outbox_pending (the same key, fewer columns).
DROP INDEX IF EXISTS delivery_outbox_pending_due;
-- DEAD rows: the snapshot's DEAD count, failures and categories; the DEAD filter of the event
-- table and `replay --all-dead --older-than-ms` by created_at.
CREATE INDEX IF NOT EXISTS delivery_outbox_dead_rows
    ON delivery_outbox (created_at, failures, last_error_category, status)
    WHERE status = 'DEAD';
-- Superseded by delivery_outbox_dead_rows.
DROP INDEX IF EXISTS delivery_outbox_dead;
-- Unfinished (PENDING and DEAD) rows by aggregate in creation order: the diagnosis's
-- blocked_aggregate reads the oldest unfinished event of every aggregate from here alone.
CREATE INDEX IF NOT EXISTS delivery_outbox_unfinished_aggregate
    ON delivery_outbox (aggregate_type, aggregate_id, created_at, event_id, status, claim_token,
        lease_until)
    WHERE status IN ('PENDING', 'DEAD');
-- RESOLVED rows (version 2): the snapshot's RESOLVED count, and a purge of old ones.
CREATE INDEX IF NOT EXISTS delivery_outbox_resolved
    ON delivery_outbox (created_at, status)
    WHERE status = 'RESOLVED';
-- The event table's default sort (Age: created_at, then event_id) and its age filters, paged by
-- keyset: the first page and page 10,000 read the same 200 index entries. Event ID sorts use
-- the primary key; the other sorts (type, failures, next attempt, error) have no index of their
-- own across the whole table (see docs/user-guide.md, The event table at scale).
CREATE INDEX IF NOT EXISTS delivery_outbox_created
    ON delivery_outbox (created_at, event_id);
-- Delivery latency: the DELIVERED rows of the last hour (or of one bucket of the Charts tab's
-- history), a range at the right-hand edge, with created_at alongside so that
-- delivered_at - created_at is ranked from the index alone. It grows with the table (one entry
-- per delivered event, two numbers); `outboxctl init` on an existing database adds it.
CREATE INDEX IF NOT EXISTS delivery_outbox_delivered
    ON delivery_outbox (delivered_at, created_at)
    WHERE status = 'DELIVERED';
-- The throughput chart: attempts finished in the last hour, a range at the right-hand edge.
CREATE INDEX IF NOT EXISTS delivery_attempt_finished
    ON delivery_attempt (finished_at, outcome);
-- An event's attempt history (detail pane; the relay's next attempt number).
CREATE INDEX IF NOT EXISTS delivery_attempt_event
    ON delivery_attempt (event_id, attempt_no);
-- Replay audit per event.
CREATE INDEX IF NOT EXISTS replay_log_event
    ON replay_log (event_id);
-- Resolve audit per event.
CREATE INDEX IF NOT EXISTS resolve_log_event
    ON resolve_log (event_id);
-- Reopen audit per event.
CREATE INDEX IF NOT EXISTS reopen_log_event
    ON reopen_log (event_id);
-- Notes per event and per error group (detail pane, Errors tab, replay's on-hold check).
CREATE INDEX IF NOT EXISTS operator_note_event
    ON operator_note (event_id, cleared_at);
CREATE INDEX IF NOT EXISTS operator_note_group
    ON operator_note (error_group, cleared_at);
-- An event's revisions in order (detail pane; the next revision number); one number once.
CREATE UNIQUE INDEX IF NOT EXISTS payload_revision_event
    ON payload_revision (event_id, revision_no);
-- The audit of one outbox, newest first (export --audit, the Audit page).
CREATE INDEX IF NOT EXISTS profile_audit_outbox
    ON profile_audit (outbox, acted_at);
