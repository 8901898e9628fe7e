# gruelbox transaction-outbox (Java, com.gruelbox:transactionoutbox-core): table TXNO_OUTBOX,
# unquoted, so txno_outbox with lower-case columns on PostgreSQL.
# Source: gruelbox/transaction-outbox, transactionoutbox-core: DefaultDialect (migrations 1-12)
# with Dialect.POSTGRESQL_9's changes (5: uniqueRequestId VARCHAR(250), 6: blacklisted renamed
# blocked, 7: lastAttemptTime TIMESTAMP(6)); DefaultPersistor (columns, unblock);
# TransactionOutboxImpl (schedule: nextAttemptTime = now + attemptFrequency, then an immediate
# attempt; flush/pushBack: due rows pushed to now + attemptFrequency before each attempt; a
# failure: attempts + 1, blocked once attempts reach blockAfterAttempts; success: the row is
# deleted, or kept processed until nextAttemptTime = now + retention with a uniqueRequestId).
# Timestamps are TIMESTAMP(6) without time zone written through JDBC in the JVM's zone: these
# expressions read them as UTC (edit them, e.g. `nextattempttime AT TIME ZONE 'Europe/Berlin'`,
# for another zone). The invocation is JSON {"c": class, "m": method, "p": ..., "a": args}.
# Not stored: the creation time, errors, claims (an attempt in progress only pushes
# nextattempttime forward, so it shows as scheduled). No SQLite support.
# On MySQL and MariaDB (Dialect.MY_SQL_5 / MY_SQL_8): the same migrations in MySQL's words, the
# table TXNO_OUTBOX in upper case (table names are case-sensitive on Linux), and migration 6's
# CHANGE COLUMN blacklisted blocked VARCHAR(250) leaves `blocked` text ('0' or '1').
name = gruelbox
description = gruelbox transaction-outbox (txno_outbox)
engines = postgresql, mysql
postgresql.from = txno_outbox
mysql.from = TXNO_OUTBOX

event_id = id
postgresql.event_type = substring(invocation from '"c":"([^"]*)"') || '.' || substring(invocation from '"m":"([^"]*)"')
mysql.event_type = CONCAT(JSON_UNQUOTE(JSON_EXTRACT(invocation, '$.c')), '.',
    JSON_UNQUOTE(JSON_EXTRACT(invocation, '$.m')))
aggregate_type = unavailable
# The ordered-delivery topic ('*' = unordered).
aggregate_id = NULLIF(topic, '*')
payload = invocation
status = CASE WHEN processed THEN 'DELIVERED' WHEN blocked THEN 'DEAD' ELSE 'PENDING' END
failures = attempts
postgresql.next_attempt_at = FLOOR(EXTRACT(EPOCH FROM nextattempttime) * 1000)::bigint
mysql.next_attempt_at = FLOOR(UNIX_TIMESTAMP(nextAttemptTime) * 1000)
claim_token = unavailable
lease_until = unavailable
created_at = unavailable
postgresql.delivered_at = CASE WHEN processed THEN FLOOR(EXTRACT(EPOCH FROM lastattempttime) * 1000)::bigint END
mysql.delivered_at = CASE WHEN processed THEN FLOOR(UNIX_TIMESTAMP(lastAttemptTime) * 1000) END
last_error_category = unavailable
last_error = unavailable

# TransactionOutbox.unblock(id) as DefaultPersistor.unblock runs it.
postgresql.replay = UPDATE txno_outbox SET attempts = 0, blocked = false
    WHERE id = :event_id AND blocked = true AND processed = false
mysql.replay = UPDATE TXNO_OUTBOX SET attempts = 0, blocked = false
    WHERE id = :event_id AND blocked = true AND processed = false

postgresql.detect = SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('txno_outbox')
    AND attname = 'nextattempttime' AND NOT attisdropped
mysql.detect = SELECT 1 FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()
    AND LOWER(TABLE_NAME) = 'txno_outbox' AND LOWER(COLUMN_NAME) = 'nextattempttime'

# No gruelbox action closes a blocked entry without running it: resolve is refused with this.
resolve_unavailable = gruelbox transaction-outbox has no action that closes a blocked entry
    without running it: TransactionOutbox.whitelist(entryId) runs it again; otherwise the entry
    stays blocked until the application deletes it from txno_outbox.
