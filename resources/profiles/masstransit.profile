# MassTransit's transactional outbox with Entity Framework Core (.NET, NuGet
# MassTransit.EntityFrameworkCore 8.5, MassTransit/MassTransit tag v8.5.8): the table
# "OutboxMessage" that modelBuilder.AddTransactionalOutboxEntities() maps and the application's
# own EF migration creates (MassTransit publishes the model, not SQL). Source:
# src/Persistence/MassTransit.EntityFrameworkCoreIntegration/Configuration/
# EntityFrameworkOutboxConfigurationExtensions.cs (ConfigureOutboxMessageEntity: key
# SequenceNumber, MessageId, EnqueueTime, SentTime, ExpirationTime, InboxMessageId /
# InboxConsumerId for the consumer outbox, OutboxId for the bus outbox, MessageType, Body, the
# addresses) and EntityFrameworkCoreIntegration/OutboxMessage.cs, with EF Core's default names
# (the entity's name, PascalCase columns) and types (Npgsql: uuid, timestamp with time zone, text;
# Pomelo MySQL: char(36), datetime(6) in UTC, longtext).
# BusOutboxDeliveryService.cs and DbContextOutboxConsumeContext.cs: a message is sent from the
# table and then deleted; one that cannot be sent stays and is sent again on the next poll
# (QueryDelay). MassTransit keeps no failure, error, attempt count or delivered message in the
# database: a consumer that faults sends its message to the broker's _error queue. So every row
# is PENDING (due at EnqueueTime for a scheduled send, else at SentTime); DELIVERED, DEAD,
# failures, errors and claims are not available (the delivery service's lock is a row lock on
# "OutboxState", invisible to another session).
name = masstransit
description = MassTransit's transactional outbox (EF Core "OutboxMessage"): messages still to be sent
engines = postgresql, mysql
statuses = PENDING
from = "OutboxMessage"

postgresql.event_id = CAST("MessageId" AS text)
mysql.event_id = "MessageId"
event_type = "MessageType"
aggregate_type = unavailable
postgresql.aggregate_id = CAST("CorrelationId" AS text)
mysql.aggregate_id = "CorrelationId"
payload = "Body"
status = 'PENDING'
failures = unavailable
postgresql.next_attempt_at = FLOOR(EXTRACT(EPOCH FROM COALESCE("EnqueueTime", "SentTime")) * 1000)::bigint
mysql.next_attempt_at = FLOOR(UNIX_TIMESTAMP(COALESCE("EnqueueTime", "SentTime")) * 1000)
claim_token = unavailable
lease_until = unavailable
postgresql.created_at = FLOOR(EXTRACT(EPOCH FROM "SentTime") * 1000)::bigint
mysql.created_at = FLOOR(UNIX_TIMESTAMP("SentTime") * 1000)
delivered_at = unavailable
last_error_category = unavailable
last_error = unavailable

replay_unavailable = MassTransit keeps no failed message in its outbox tables: a message it
    cannot send stays in OutboxMessage and is sent again on the next poll, and a message whose
    consumer faulted is in the broker's _error queue; move it back with the broker's tools (or
    MassTransit's own move of faulted messages) rather than through the database.
resolve_unavailable = MassTransit's outbox has no state that closes a message; only the
    application deletes a row of OutboxMessage.

postgresql.detect = SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('"OutboxMessage"')
    AND attname = 'SequenceNumber' AND NOT attisdropped
mysql.detect = SELECT 1 FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()
    AND TABLE_NAME = 'OutboxMessage' AND COLUMN_NAME = 'SequenceNumber'
