-- A case's version: how many alerts have joined it. Each alert keeps the version it joined at, so a decision
-- sent with the version its reviewer saw applies to exactly the alerts they could see (case_version <= it),
-- and the server can name the ones that arrived since. The version is bumped under the case's row lock in the
-- same statement that files the alert, so the numbers follow commit order: a reviewer who read version N had
-- every alert numbered up to N in front of them.
ALTER TABLE monitoring_cases ADD COLUMN alert_version integer NOT NULL DEFAULT 0;
ALTER TABLE monitoring_alerts ADD COLUMN case_version integer;

UPDATE monitoring_alerts a SET case_version = n.v
  FROM (SELECT id, row_number() OVER (PARTITION BY case_id ORDER BY raised_at, id) AS v
          FROM monitoring_alerts WHERE case_id IS NOT NULL) n
 WHERE a.id = n.id;
UPDATE monitoring_cases c SET alert_version = coalesce(
  (SELECT max(case_version) FROM monitoring_alerts a WHERE a.case_id = c.id), 0);

CREATE FUNCTION monitoring_alert_joins_case() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.case_id IS NULL THEN
    NEW.case_version := NULL;
  ELSIF TG_OP = 'INSERT' OR NEW.case_id IS DISTINCT FROM OLD.case_id THEN
    UPDATE monitoring_cases SET alert_version = alert_version + 1
     WHERE id = NEW.case_id AND (status <> 'closed' OR NEW.status <> 'open')
      RETURNING alert_version INTO NEW.case_version;
    -- The case was closed while this open alert was being filed into it (the gathering read it open): the
    -- alert stays out of it, waiting for the next gathering to open a new case, rather than hold unseen in a
    -- closed one.
    IF NOT FOUND THEN
      NEW.case_id := NULL;
      NEW.case_version := NULL;
    END IF;
  ELSE
    NEW.case_version := OLD.case_version;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER monitoring_alert_joins_case BEFORE INSERT OR UPDATE OF case_id, case_version ON monitoring_alerts
  FOR EACH ROW EXECUTE FUNCTION monitoring_alert_joins_case();
