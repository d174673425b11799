-- /alerts filtered by rule, newest first (alert.ts compares rule_id as text): with 100,000 alerts the filter
-- read every alert of the rule to count and order them; this index gives the rule's alerts in page order.
CREATE INDEX IF NOT EXISTS monitoring_alerts_rule ON monitoring_alerts ((rule_id::text), raised_at DESC, id DESC);
