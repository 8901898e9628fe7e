# Spring Modulith 2.x event publication registry, JDBC: table event_publication.
# Source: spring-projects/spring-modulith, spring-modulith-events-jdbc
#   src/main/resources/schemas/v2/schema-postgresql.sql: the 1.x columns plus
#   status TEXT, completion_attempts INT, last_resubmission_date TIMESTAMPTZ;
#   JdbcEventPublicationRepositoryV2: a publication is created PUBLISHED with
#   completion_attempts = 1 and last_resubmission_date = publication_date; markProcessing sets
#   PROCESSING, markFailed FAILED, markResubmitted RESUBMITTED with completion_attempts + 1 and
#   last_resubmission_date, completion COMPLETED with completion_date.
# A FAILED publication waits for FailedEventPublications.resubmit(...): DEAD here. PROCESSING
# and RESUBMITTED are handed to a listener: in flight, without a lease (the staleness timeouts
# are application settings), so lease expired is not available. Rows written by 1.x before the
# migration have no status: complete or pending by completion_date. Spring Modulith has no
# error column. JDBC on PostgreSQL, MySQL and MariaDB (schemas/v2/schema-mysql.sql and
# schema-mariadb.sql: EVENT_PUBLICATION, upper case, VARCHAR columns, TIMESTAMP(6) dates); no
# SQLite support.
name = spring-modulith-2
description = Spring Modulith 2.x event publications (event_publication with status)
engines = postgresql, mysql
postgresql.from = event_publication
mysql.from = EVENT_PUBLICATION

postgresql.event_id = id::text
mysql.event_id = id
event_type = event_type
aggregate_type = unavailable
# The publication's target: the listener that has (or has not) completed the event.
aggregate_id = listener_id
payload = serialized_event
status = CASE WHEN completion_date IS NOT NULL OR status = 'COMPLETED' THEN 'DELIVERED'
    WHEN status IN ('FAILED', 'ABANDONED') THEN 'DEAD' ELSE 'PENDING' END
# completion_attempts counts attempts, the first included: a failed publication failed each
# time, any other failed every time but the current or last one.
failures = CASE WHEN status IN ('FAILED', 'ABANDONED') THEN COALESCE(completion_attempts, 1)
    ELSE COALESCE(completion_attempts, 1) - 1 END
postgresql.next_attempt_at = FLOOR(EXTRACT(EPOCH FROM COALESCE(last_resubmission_date, publication_date)) * 1000)::bigint
mysql.next_attempt_at = FLOOR(UNIX_TIMESTAMP(COALESCE(last_resubmission_date, publication_date)) * 1000)
postgresql.claim_token = CASE WHEN completion_date IS NULL AND status IN ('PROCESSING', 'RESUBMITTED')
    THEN id::text END
mysql.claim_token = CASE WHEN completion_date IS NULL AND status IN ('PROCESSING', 'RESUBMITTED')
    THEN id END
lease_until = unavailable
postgresql.created_at = FLOOR(EXTRACT(EPOCH FROM publication_date) * 1000)::bigint
mysql.created_at = FLOOR(UNIX_TIMESTAMP(publication_date) * 1000)
postgresql.delivered_at = FLOOR(EXTRACT(EPOCH FROM completion_date) * 1000)::bigint
mysql.delivered_at = FLOOR(UNIX_TIMESTAMP(completion_date) * 1000)
last_error_category = unavailable
last_error = unavailable

replay_unavailable = Spring Modulith resubmits publications only through the application:
    call FailedEventPublications.resubmit(ResubmissionOptions) for failed publications
    (Spring Modulith 2), or IncompleteEventPublications.resubmitIncompletePublications(filter) /
    resubmitIncompletePublicationsOlderThan(duration) for incomplete ones.

postgresql.detect = SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('event_publication')
    AND attname = 'status' AND NOT attisdropped
mysql.detect = SELECT 1 FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()
    AND LOWER(TABLE_NAME) = 'event_publication' AND LOWER(COLUMN_NAME) = 'status'

# Resolve is refused with this: Spring Modulith owns its publications.
resolve_unavailable = Spring Modulith closes publications only through the application (its
    event publication registry); Outbox Health does not write event_publication.
