-- A holding alert and a decision that lets money go never pass each other. The decision (an approval, the
-- claim of an approved request for sending) takes the sub-account's hold lock exclusively in its own
-- transaction, after its row lock, and then reads the open holding alerts (server/monitoring/hold.ts
-- refuseHeldInTransaction); every insert of a holding alert takes the same lock, shared, before the row is
-- written. So an alert whose transaction began its insert first is committed before the decision reads
-- (and stops it), and one that comes later waits until the decision has committed. Shared among themselves,
-- so evaluations that raise alerts for many sub-accounts in one statement never wait on each other.
-- raised_at, left at its transaction's start, moves to the time the lock was granted: an alert that waited
-- for a decision says it was raised after it (a value the insert gave explicitly is kept).
CREATE FUNCTION monitoring_alert_hold_lock() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(hashtext('monitoring-hold:' || NEW.sub_uid));
  IF NEW.raised_at = now() THEN
    NEW.raised_at := clock_timestamp();
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER monitoring_alert_hold_lock BEFORE INSERT ON monitoring_alerts
  FOR EACH ROW WHEN (NEW.holds) EXECUTE FUNCTION monitoring_alert_hold_lock();
