-- A case's page reads its alerts newest first, a keyset page at a time (a case may gather thousands): the
-- index walks one case's alerts in that order, and serves the plain case_id lookups the old index did.
CREATE INDEX monitoring_alerts_case_raised ON monitoring_alerts (case_id, raised_at DESC, id DESC);
DROP INDEX monitoring_alerts_case;
