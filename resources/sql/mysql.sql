-- Native Outbox Health schema for MariaDB (10.6 and later) and MySQL (8.0.1 and later), version 3
-- (Schema::CurrentVersion), InnoDB. Idempotent: every table is CREATE TABLE IF NOT EXISTS with its
-- indexes inside, because MySQL has no CREATE INDEX IF NOT EXISTS. Times are integer milliseconds
-- since the epoch in BIGINT columns (never DATETIME: Qt's driver converts those through the
-- client's time zone). Text that is a key or is compared (IDs, states, categories) is utf8mb4_bin,
-- so 'EV-a' and 'EV-A' are two events and an ID prefix search matches case and accents exactly,
-- as on the other engines; free text (payload, errors, reasons) keeps the server's collation.
-- Sessions run with sql_mode ANSI_QUOTES (models/db/dialect/mysqldialect.cpp), so "key" below is
-- a quoted identifier.
--
-- InnoDB has no partial indexes. Each PostgreSQL partial index `... WHERE status = X` becomes an
-- index that starts with status: the same rows sit together at the front of the key, so a read of
-- one state is one range scan, but the index holds every row (the PENDING and DEAD ranges stay as
-- small as those states; the other rows cost index space, not read time). INCLUDE columns become
-- trailing key columns, and every secondary index carries the primary key (event_id) anyway.
CREATE TABLE IF NOT EXISTS delivery_outbox (
    event_id VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL PRIMARY KEY,
    aggregate_type VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    aggregate_id VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    event_type VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    payload MEDIUMTEXT NOT NULL,
    status VARCHAR(16) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    failures INT NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    claim_token VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
    lease_until BIGINT,
    created_at BIGINT NOT NULL,
    delivered_at BIGINT,
    last_error_category VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
    last_error TEXT,
    CONSTRAINT delivery_outbox_status_check
        CHECK (status IN ('PENDING', 'DELIVERED', 'DEAD', 'RESOLVED')),
    -- PENDING rows by due time (PostgreSQL: delivery_outbox_pending): the relay's claim, and the
    -- snapshot's due / scheduled / in flight / lease expired counts and buckets from the index
    -- alone, claim_token included (PostgreSQL INCLUDEs it; version 2 of this script did not, and
    -- the snapshot then read every PENDING row from the table: `outboxctl migrate` redefines it).
    -- The snapshot names it (FORCE INDEX): InnoDB's optimizer preferred the shorter
    -- delivery_outbox_state_created and read the rows.
    INDEX delivery_outbox_pending
        (status, next_attempt_at, lease_until, created_at, failures, last_error_category,
            claim_token),
    -- DEAD and RESOLVED rows by age (PostgreSQL: delivery_outbox_dead_rows and _resolved).
    INDEX delivery_outbox_state_created (status, created_at, failures, last_error_category),
    -- Unfinished rows by aggregate in creation order (PostgreSQL: _unfinished_aggregate).
    -- Whole columns, not prefixes, and the lease: the diagnosis's blocked_aggregate reads it
    -- alone (version 2's (status, aggregate_type(100), aggregate_id(100), created_at) made it
    -- fetch every unfinished row from the table; `outboxctl migrate` redefines it). 2,376 bytes
    -- of key at most, within InnoDB's 3,072.
    INDEX delivery_outbox_unfinished_aggregate
        (status, aggregate_type, aggregate_id, created_at, claim_token, lease_until),
    -- The event table's default sort and its keyset pages (PostgreSQL: delivery_outbox_created).
    INDEX delivery_outbox_created (created_at, event_id),
    -- DELIVERED rows by delivery time, with created_at for the latency (PostgreSQL:
    -- delivery_outbox_delivered).
    INDEX delivery_outbox_delivered (status, delivered_at, created_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE TABLE IF NOT EXISTS delivery_attempt (
    attempt_id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    event_id VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    attempt_no INT NOT NULL,
    worker VARCHAR(255) NOT NULL,
    claim_token VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    claimed_at BIGINT NOT NULL,
    finished_at BIGINT,
    outcome VARCHAR(32) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
    error_category VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
    error_message TEXT,
    consumer_result VARCHAR(32) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
    next_attempt_at BIGINT,
    CONSTRAINT delivery_attempt_event_fk FOREIGN KEY (event_id)
        REFERENCES delivery_outbox (event_id),
    -- The throughput chart: attempts finished in the last hour.
    INDEX delivery_attempt_finished (finished_at, outcome),
    -- An event's attempt history (detail pane; the relay's next attempt number).
    INDEX delivery_attempt_event (event_id, attempt_no)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE TABLE IF NOT EXISTS consumer_ledger (
    event_id VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL PRIMARY KEY,
    applied_at BIGINT NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE TABLE IF NOT EXISTS consumer_stock (
    sku VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL PRIMARY KEY,
    quantity INT NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE TABLE IF NOT EXISTS replay_log (
    replay_id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    event_id VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    replayed_at BIGINT NOT NULL,
    operator VARCHAR(255) NOT NULL,
    reason TEXT NOT NULL,
    reset_failures BOOLEAN NOT NULL,
    failures_before INT NOT NULL,
    CONSTRAINT replay_log_event_fk FOREIGN KEY (event_id) REFERENCES delivery_outbox (event_id),
    INDEX replay_log_event (event_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
-- Operator resolutions: a DEAD event closed without delivery, who and why.
CREATE TABLE IF NOT EXISTS resolve_log (
    resolve_id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    event_id VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    resolved_at BIGINT NOT NULL,
    operator VARCHAR(255) NOT NULL,
    reason TEXT NOT NULL,
    failures_before INT NOT NULL,
    CONSTRAINT resolve_log_event_fk FOREIGN KEY (event_id) REFERENCES delivery_outbox (event_id),
    INDEX resolve_log_event (event_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
-- Operator reopenings: a RESOLVED event put back to DEAD, who and why.
CREATE TABLE IF NOT EXISTS reopen_log (
    reopen_id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    event_id VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    reopened_at BIGINT NOT NULL,
    operator VARCHAR(255) NOT NULL,
    reason TEXT NOT NULL,
    failures_before INT NOT NULL,
    CONSTRAINT reopen_log_event_fk FOREIGN KEY (event_id) REFERENCES delivery_outbox (event_id),
    INDEX reopen_log_event (event_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
-- Operator notes and markers (version 3): free text on a DEAD event or on an error group (the
-- signature of the Errors tab), exactly one of the two, with who and when, and an optional marker
-- ('investigating' or 'on-hold'). A cleared note is kept for the audit (cleared_at, cleared_by).
-- No foreign key to delivery_outbox: a note outlives a purge of its event, as an audit record.
CREATE TABLE IF NOT EXISTS operator_note (
    note_id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    event_id VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
    error_group VARCHAR(300) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
    operator VARCHAR(255) NOT NULL,
    created_at BIGINT NOT NULL,
    text TEXT NOT NULL,
    marker VARCHAR(16) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
    cleared_at BIGINT,
    cleared_by VARCHAR(255),
    CONSTRAINT operator_note_marker_check CHECK (marker IN ('investigating', 'on-hold')),
    CONSTRAINT operator_note_target_check CHECK ((event_id IS NULL) <> (error_group IS NULL)),
    INDEX operator_note_event (event_id, cleared_at),
    INDEX operator_note_group (error_group, cleared_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
-- Edit and replay (version 3): the payload an event had before each operator edit, kept
-- immutable, with the payload the edit set, who, why, when, and whether the redacted values were
-- revealed to the editor. Revision 1 holds the event's original payload.
CREATE TABLE IF NOT EXISTS payload_revision (
    revision_id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    event_id VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    revision_no INT NOT NULL,
    payload MEDIUMTEXT NOT NULL,
    new_payload MEDIUMTEXT NOT NULL,
    operator VARCHAR(255) NOT NULL,
    reason TEXT NOT NULL,
    revealed BOOLEAN NOT NULL,
    created_at BIGINT NOT NULL,
    CONSTRAINT payload_revision_event_fk FOREIGN KEY (event_id)
        REFERENCES delivery_outbox (event_id),
    -- An event's revisions in order (detail pane; the next revision number); one number once.
    UNIQUE INDEX payload_revision_event (event_id, revision_no)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
-- The audit of actions through a profile (another library's outbox, whose database has no
-- replay_log): kept here when this database is the team's audit store (--notes-db), one row per
-- event and action. Written 'intended' before the library's row changes and settled ('done',
-- 'skipped', 'failed') after its transaction ends: a row left 'intended' is an action whose end
-- was never recorded (a crash, a lost connection). `outbox` names the profile and its database.
-- `outboxctl init` adds this table to a database made before it existed.
CREATE TABLE IF NOT EXISTS profile_audit (
    audit_id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    outbox VARCHAR(512) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    event_id VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    action VARCHAR(32) NOT NULL,
    acted_at BIGINT NOT NULL,
    operator VARCHAR(255) NOT NULL,
    reason TEXT NOT NULL,
    state_before TEXT NOT NULL,
    state_after TEXT,
    outcome VARCHAR(16) NOT NULL,
    settled_at BIGINT,
    INDEX profile_audit_outbox (outbox, acted_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE TABLE IF NOT EXISTS outbox_meta (
    "key" VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL PRIMARY KEY,
    value TEXT NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
