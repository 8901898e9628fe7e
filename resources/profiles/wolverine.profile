# Wolverine's durable envelope storage (.NET, NuGet WolverineFx.Postgresql / WolverineFx.MySql),
# as Wolverine 6.29 (JasperFx/wolverine tag V6.29.2, Weasel 9.26) creates it, in the schema
# "wolverine" (the default of EnvelopeStorageSchemaName / MessageStorageSchemaName).
# Source: src/Persistence/Wolverine.Postgresql/Schema/ and src/Persistence/MySql/Wolverine.MySql/
# Schema/ (OutgoingEnvelopeTable.cs, IncomingEnvelopeTable.cs, DeadLettersTable.cs) with the
# names of src/Persistence/Wolverine.RDBMS/DatabaseConstants.cs, and Weasel's type mapping
# (PostgreSQL: Guid uuid, DateTimeOffset timestamptz; MySQL: Guid CHAR(36), DateTimeOffset
# DATETIME written in UTC, bool TINYINT(1)).
#   wolverine_outgoing_envelopes  the durable outbox: one row per envelope still to be sent to
#                                 `destination`; owner_id = the node sending it (0: none);
#                                 deleted once the transport took it
#   wolverine_incoming_envelopes  the durable inbox: status Incoming (to handle), Scheduled (a
#                                 retry or a scheduled message at execution_time, owner_id 0) or
#                                 Handled (kept until keep_until for deduplication)
#   wolverine_dead_letters        envelopes whose handling failed for good, with exception_type
#                                 and exception_message; replayable = true asks the durability
#                                 agent to move it back into the inbox
#                                 (Durability/MoveReplayableErrorMessagesToIncomingOperation.cs:
#                                 an INSERT into incoming and a DELETE of the dead letter)
# DEAD lives in its own table: the profile reads the three tables as one (UNION ALL). That is
# why replay is read-only here: the tool locks the event's row through the profile before it
# writes, and a row of a UNION cannot be locked (FOR UPDATE is not allowed with UNION).
# Wolverine keeps no creation time and no due time for an envelope it is not holding back: such
# an envelope is due, with no time (next_attempt_at 0, "due, the schema keeps no due time").
name = wolverine
description = Wolverine's durable outbox, inbox and dead letters (wolverine_*_envelopes, wolverine_dead_letters)
engines = postgresql, mysql

postgresql.from = (SELECT CAST(id AS text) AS envelope_id, 'outgoing' AS kept_in,
        CAST(NULL AS varchar) AS inbox_status, owner_id, attempts, message_type,
        destination AS address, CAST(NULL AS timestamptz) AS execution_time,
        CAST(NULL AS text) AS exception_type, CAST(NULL AS text) AS exception_message,
        CAST(NULL AS boolean) AS replayable
      FROM wolverine.wolverine_outgoing_envelopes
    UNION ALL
    SELECT CAST(id AS text), 'incoming', status, owner_id, attempts, message_type, received_at,
        execution_time, NULL, NULL, NULL
      FROM wolverine.wolverine_incoming_envelopes
    UNION ALL
    SELECT CAST(id AS text), 'dead_letters', NULL, 0, NULL, message_type, received_at,
        execution_time, exception_type, exception_message, replayable
      FROM wolverine.wolverine_dead_letters) AS envelopes
# On MySQL and MariaDB Wolverine's schema is a database of its own: connect to it
# (mysql://.../wolverine).
mysql.from = (SELECT id AS envelope_id, 'outgoing' AS kept_in,
        CAST(NULL AS CHAR) AS inbox_status, owner_id, attempts, message_type,
        destination AS address, CAST(NULL AS DATETIME) AS execution_time,
        CAST(NULL AS CHAR) AS exception_type, CAST(NULL AS CHAR) AS exception_message,
        CAST(NULL AS SIGNED) AS replayable
      FROM wolverine_outgoing_envelopes
    UNION ALL
    SELECT id, 'incoming', status, owner_id, attempts, message_type, received_at,
        execution_time, NULL, NULL, NULL
      FROM wolverine_incoming_envelopes
    UNION ALL
    SELECT id, 'dead_letters', NULL, 0, NULL, message_type, received_at, execution_time,
        exception_type, exception_message, replayable
      FROM wolverine_dead_letters) AS envelopes

event_id = envelope_id
event_type = message_type
aggregate_type = unavailable
# Where the envelope goes (outbox) or came in (inbox, dead letters): a listener's URI.
aggregate_id = address
# The body is Wolverine's binary envelope (EnvelopeSerializer), not text.
payload = unavailable
status = CASE WHEN kept_in = 'dead_letters' AND replayable = 0 THEN 'DEAD'
    WHEN kept_in = 'incoming' AND inbox_status = 'Handled' THEN 'DELIVERED'
    ELSE 'PENDING' END
postgresql.status = CASE WHEN kept_in = 'dead_letters' AND NOT replayable THEN 'DEAD'
    WHEN kept_in = 'incoming' AND inbox_status = 'Handled' THEN 'DELIVERED'
    ELSE 'PENDING' END
# Wolverine counts attempts, the running one included; a dead letter keeps no count.
failures = attempts
postgresql.next_attempt_at = COALESCE(FLOOR(EXTRACT(EPOCH FROM execution_time) * 1000)::bigint, 0)
mysql.next_attempt_at = COALESCE(FLOOR(UNIX_TIMESTAMP(execution_time) * 1000), 0)
# A node owns an envelope it is sending or handling; the durability agent reassigns the
# envelopes of a node whose heartbeat stopped (its own settings, not in the table).
postgresql.claim_token = CASE WHEN kept_in <> 'dead_letters' AND owner_id <> 0
    AND COALESCE(inbox_status, '') <> 'Handled' THEN 'node ' || owner_id END
mysql.claim_token = CASE WHEN kept_in <> 'dead_letters' AND owner_id <> 0
    AND COALESCE(inbox_status, '') <> 'Handled' THEN CONCAT('node ', owner_id) END
lease_until = unavailable
created_at = unavailable
delivered_at = unavailable
last_error_category = unavailable
postgresql.last_error = CASE WHEN kept_in = 'dead_letters'
    THEN COALESCE(exception_type || ': ', '') || COALESCE(exception_message, '') END
mysql.last_error = CASE WHEN kept_in = 'dead_letters'
    THEN CONCAT(COALESCE(CONCAT(exception_type, ': '), ''), COALESCE(exception_message, '')) END

replay_unavailable = Wolverine keeps a dead letter in wolverine_dead_letters and replays it when
    it is marked replayable, which Outbox Health cannot do through a profile that reads three
    tables as one: run IDeadLetters.MarkDeadLetterEnvelopesAsReplayableAsync(ids) (or
    ReplayAsync) in the application (or UPDATE wolverine_dead_letters SET replayable = true WHERE id = ...); its
    durability agent then moves the envelope back into the inbox.
resolve_unavailable = Wolverine has no state that closes a dead letter and keeps it; discard it
    with IDeadLetters.DiscardAsync in the application, or let the dead-letter expiration
    (DeadLetterQueueExpirationEnabled) remove it.

postgresql.detect = SELECT 1 FROM pg_attribute
    WHERE attrelid = to_regclass('wolverine.wolverine_dead_letters')
    AND attname = 'replayable' AND NOT attisdropped
    AND to_regclass('wolverine.wolverine_outgoing_envelopes') IS NOT NULL
mysql.detect = SELECT 1 FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()
    AND LOWER(TABLE_NAME) = 'wolverine_dead_letters' AND LOWER(COLUMN_NAME) = 'replayable'
