-- 0010_daily: what the platform said about a UID Brokerdesk tried to bind (49001, bound to
-- another risk unit), kept so the risk-units page knows it next time.

CREATE TABLE risk_unit_refusals (
  uid           text PRIMARY KEY CHECK (uid ~ '^[0-9]{1,32}$'),
  risk_unit_id  text NOT NULL,
  code          text NOT NULL,
  msg           text NOT NULL,
  refused_by    text NOT NULL,
  refused_at    timestamptz NOT NULL DEFAULT now()
);
