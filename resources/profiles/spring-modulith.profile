# Spring Modulith 1.x event publication registry, JDBC: table event_publication.
# Source: spring-projects/spring-modulith, spring-modulith-events-jdbc
#   src/main/resources/schemas/v1/schema-postgresql.sql:
#   event_publication (id UUID, listener_id TEXT, event_type TEXT, serialized_event TEXT,
#                      publication_date TIMESTAMPTZ, completion_date TIMESTAMPTZ);
#   on MySQL and MariaDB src/main/resources/schema-mysql.sql (schemas/v1/schema-mariadb.sql):
#   EVENT_PUBLICATION, upper case, with VARCHAR columns and TIMESTAMP(6) dates.
# One row per event and listener. A publication is complete once completion_date is set; an
# incomplete one waits until the application resubmits it (at a restart with
# spring.modulith.events.republish-outstanding-events-on-restart, or through
# IncompleteEventPublications). 1.x records no failures, no attempts, no errors and no claims,
# so DEAD, in flight and lease expired are not available. Spring Modulith 2's layout (with a
# status column) is the spring-modulith-2 profile. JDBC on PostgreSQL, MySQL and
# MariaDB (no SQLite support). MySQL's table names are case-sensitive on Linux: the published
# DDL's upper-case name is read as it is.
name = spring-modulith
description = Spring Modulith 1.x event publications (event_publication without status)
engines = postgresql, mysql
# The 1.x expressions still work on 2.x's table but miss its FAILED rows: on a table with a
# status column, validation says to use spring-modulith-2.
newer = spring-modulith-2
postgresql.from = event_publication
mysql.from = EVENT_PUBLICATION
statuses = PENDING, DELIVERED

postgresql.event_id = id::text
mysql.event_id = id
event_type = event_type
aggregate_type = unavailable
# The publication's target: the listener that has (or has not) completed the event.
aggregate_id = listener_id
payload = serialized_event
status = CASE WHEN completion_date IS NULL THEN 'PENDING' ELSE 'DELIVERED' END
failures = unavailable
# Nothing is scheduled: an incomplete publication is due for resubmission since it was published.
postgresql.next_attempt_at = FLOOR(EXTRACT(EPOCH FROM publication_date) * 1000)::bigint
mysql.next_attempt_at = FLOOR(UNIX_TIMESTAMP(publication_date) * 1000)
claim_token = unavailable
lease_until = unavailable
postgresql.created_at = FLOOR(EXTRACT(EPOCH FROM publication_date) * 1000)::bigint
mysql.created_at = FLOOR(UNIX_TIMESTAMP(publication_date) * 1000)
postgresql.delivered_at = FLOOR(EXTRACT(EPOCH FROM completion_date) * 1000)::bigint
mysql.delivered_at = FLOOR(UNIX_TIMESTAMP(completion_date) * 1000)
last_error_category = unavailable
last_error = unavailable

replay_unavailable = Spring Modulith resubmits publications only through the application:
    call IncompleteEventPublications.resubmitIncompletePublications(filter) or
    resubmitIncompletePublicationsOlderThan(duration), or restart it with
    spring.modulith.events.republish-outstanding-events-on-restart=true.

# The 1.x layout: the table without the status column that Spring Modulith 2 added.
postgresql.detect = SELECT 1 WHERE to_regclass('event_publication') IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('event_publication')
    AND attname = 'status' AND NOT attisdropped)
mysql.detect = SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()
    AND LOWER(TABLE_NAME) = 'event_publication' AND NOT EXISTS (
    SELECT 1 FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()
    AND LOWER(TABLE_NAME) = 'event_publication' AND LOWER(COLUMN_NAME) = 'status')

# Resolve is refused with this: Spring Modulith owns its publications.
resolve_unavailable = Spring Modulith closes publications only through the application (its
    event publication registry); Outbox Health does not write event_publication.
