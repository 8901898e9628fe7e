# A profile for the hand-made table in custom.sql: generic expressions that work on both
# engines. Columns left out (aggregate_type, aggregate_id, last_error_category) are unavailable.
name = shop
description = The shop's own outbox table (shop_outbox)
from = shop_outbox

event_id = CAST(job_id AS TEXT)
event_type = kind
payload = body
status = CASE state
    WHEN 'sent' THEN 'DELIVERED'
    WHEN 'error' THEN 'DEAD'
    ELSE 'PENDING' END
failures = tries
next_attempt_at = run_at_ms
claim_token = CASE WHEN state = 'sending' THEN CAST(job_id AS TEXT) END
lease_until = CASE WHEN state = 'sending' THEN locked_until_ms END
created_at = created_ms
delivered_at = sent_ms
last_error = error

replay = UPDATE shop_outbox SET state = 'queued', run_at_ms = :now
    WHERE job_id = CAST(:event_id AS INTEGER) AND state = 'error'
