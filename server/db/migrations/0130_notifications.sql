-- 0130_notifications: events as data, written in the same transaction as what caused them (an outbox), so none is
-- lost and none is made up by a rollback. The causes are rows: triggers on the tables whose changes are the events
-- write them, so every code path that changes the row (a route, a job, a recovery, another instance) emits, and
-- nothing else can. Each event names its type, a payload (lib/api/notifications/events.ts parses it with the type's
-- schema when it is read), and its audience as data: one person ({"email"}), or the holders of a permission in some
-- roles ({"permission", "roles"?, "except"?}). Who may read an event is decided again when it is read, from the
-- reader's role at that moment (server/notifications/inbox.ts): a role changed since sees only what it may read now.

CREATE TABLE notification_events (
  id          bigserial PRIMARY KEY,
  type        text NOT NULL CHECK (type ~ '^[a-z_]+\.[a-z_]+$'),
  payload     jsonb NOT NULL,
  audience    jsonb NOT NULL,
  -- The row that caused it, for the link and for de-duplication of periodic events (NULL: none).
  subject     text,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notification_events_created ON notification_events (id DESC);
CREATE INDEX notification_events_subject ON notification_events (subject, type);
CREATE INDEX notification_events_email ON notification_events ((lower(audience ->> 'email')), id DESC)
  WHERE audience ? 'email';
-- A periodic event (a case overdue, a sync behind) is raised once per subject and type.
CREATE UNIQUE INDEX notification_events_once ON notification_events (type, subject) WHERE type IN
  ('case.overdue', 'sync.behind', 'platform.down', 'audit.chain_broken');

-- What each person has read: every event up to read_through, and single ones above it.
CREATE TABLE notification_reads (
  email         text PRIMARY KEY,
  read_through  bigint NOT NULL DEFAULT 0,
  read_ids      bigint[] NOT NULL DEFAULT '{}'
);

CREATE FUNCTION notify_event(t text, p jsonb, a jsonb, s text) RETURNS void LANGUAGE sql AS $$
  INSERT INTO notification_events (type, payload, audience, subject) VALUES (t, p, a, s)
$$;

-- Withdrawal requests: a new request waits for the roles its policy asks approvals of (never its requester); its
-- requester hears of each decision. What the payload says is what every reader of withdrawals may read (no reason:
-- a compliance rejection's reason is compliance's).
CREATE FUNCTION notify_withdrawal() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  body jsonb := jsonb_build_object('withdrawalId', NEW.id::text, 'subUid', NEW.sub_uid, 'coin', NEW.coin,
                                   'amount', NEW.amount::text, 'requestedBy', NEW.requested_by);
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM notify_event('withdrawal.awaiting_approval', body,
      jsonb_build_object('permission', 'withdrawals.approve', 'except', NEW.requested_by,
        'roles', coalesce(jsonb_path_query_array(coalesce(NEW.policy_approvals, '[{"role":"lead"}]'), '$[*].role'),
                          '["lead"]'::jsonb)),
      'withdrawal:' || NEW.id);
  ELSIF NEW.state IS DISTINCT FROM OLD.state AND NEW.state IN ('approved', 'rejected', 'confirmed', 'failed', 'unknown')
  THEN
    PERFORM notify_event('withdrawal.decided', body || jsonb_build_object('state', NEW.state),
      jsonb_build_object('email', NEW.requested_by), 'withdrawal:' || NEW.id);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER withdrawal_requests_notify AFTER INSERT OR UPDATE OF state ON withdrawal_requests
  FOR EACH ROW EXECUTE FUNCTION notify_withdrawal();

-- Monitoring alerts: a high one about the last day's activity to everyone who reads monitoring (an alert a rule
-- raises over older history, when it is activated or a backtest-like evaluation catches up, is /alerts' to show:
-- ten thousand of them would be ten thousand mails); a holding one, for each request of its sub-account that
-- waits, to that request's requester, saying only that it is held by compliance.
CREATE FUNCTION notify_alert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  w record;
BEGIN
  IF NEW.severity = 'high' AND NEW.window_end >= floor(extract(epoch FROM now()) * 1000) - 86400000 THEN
    PERFORM notify_event('alert.high',
      jsonb_build_object('alertId', NEW.id::text, 'subUid', NEW.sub_uid,
        'rule', (SELECT name FROM monitoring_rules WHERE id = NEW.rule_id), 'holds', NEW.holds),
      jsonb_build_object('permission', 'monitoring.read'), 'alert:' || NEW.id);
  END IF;
  IF NEW.holds THEN
    FOR w IN SELECT id, requested_by, policy_approvals FROM withdrawal_requests
              WHERE sub_uid = NEW.sub_uid AND state = 'requested' LOOP
      -- Once per request while it waits: a second holding alert says nothing new to them.
      CONTINUE WHEN EXISTS (SELECT 1 FROM notification_events e
                             WHERE e.type = 'withdrawal.held' AND e.subject = 'withdrawal:' || w.id);
      PERFORM notify_event('withdrawal.held', jsonb_build_object('withdrawalId', w.id::text, 'subUid', NEW.sub_uid),
        jsonb_build_object('email', w.requested_by), 'withdrawal:' || w.id);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER monitoring_alerts_notify AFTER INSERT ON monitoring_alerts
  FOR EACH ROW EXECUTE FUNCTION notify_alert();

-- A case assigned to someone: to them.
CREATE FUNCTION notify_case() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.assignee IS NOT NULL AND NEW.assignee IS DISTINCT FROM OLD.assignee THEN
    PERFORM notify_event('case.assigned', jsonb_build_object('caseId', NEW.id::text, 'subUid', NEW.sub_uid),
      jsonb_build_object('email', NEW.assignee, 'permission', 'monitoring.read'), 'case:' || NEW.id);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER monitoring_cases_notify AFTER UPDATE OF assignee ON monitoring_cases
  FOR EACH ROW EXECUTE FUNCTION notify_case();

-- Decisions that wait for a second person: a rule version drafted, a retirement proposed, a snooze of a holding rule
-- asked for, a sanctions match's release proposed, a money-out policy drafted, a list version that removes addresses.
CREATE FUNCTION notify_second_person() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'monitoring_rule_versions' THEN
    IF TG_OP = 'INSERT' AND NEW.state = 'draft' THEN
      PERFORM notify_event('control.awaiting_second_person',
        jsonb_build_object('what', 'rule_version', 'id', NEW.id::text, 'by', NEW.author),
        jsonb_build_object('permission', 'monitoring.approve', 'except', NEW.author), 'rule_version:' || NEW.id);
    ELSIF TG_OP = 'UPDATE' AND NEW.retire_requested_by IS NOT NULL AND OLD.retire_requested_by IS NULL THEN
      PERFORM notify_event('control.awaiting_second_person',
        jsonb_build_object('what', 'rule_retirement', 'id', NEW.id::text, 'by', NEW.retire_requested_by),
        jsonb_build_object('permission', 'monitoring.approve', 'except', NEW.retire_requested_by),
        'rule_version:' || NEW.id);
    END IF;
  ELSIF TG_TABLE_NAME = 'monitoring_snooze_requests' THEN
    PERFORM notify_event('control.awaiting_second_person',
      jsonb_build_object('what', 'snooze', 'id', NEW.id::text, 'by', NEW.requested_by),
      jsonb_build_object('permission', 'monitoring.approve', 'except', NEW.requested_by), 'snooze:' || NEW.id);
  ELSIF TG_TABLE_NAME = 'monitoring_alerts' THEN
    IF NEW.release_requested_by IS NOT NULL AND OLD.release_requested_by IS NULL THEN
      PERFORM notify_event('control.awaiting_second_person',
        jsonb_build_object('what', 'sanctions_release', 'id', NEW.id::text, 'by', NEW.release_requested_by),
        jsonb_build_object('permission', 'monitoring.approve', 'except', NEW.release_requested_by), 'alert:' || NEW.id);
    END IF;
  ELSIF TG_TABLE_NAME = 'money_out_policies' THEN
    IF NEW.state = 'draft' THEN
      PERFORM notify_event('control.awaiting_second_person',
        jsonb_build_object('what', 'policy', 'id', NEW.version::text, 'by', NEW.drafted_by),
        jsonb_build_object('permission', 'policy.approve', 'except', NEW.drafted_by), 'policy:' || NEW.version);
    END IF;
  ELSIF TG_TABLE_NAME = 'screening_list_versions' THEN
    -- The import writes its version first and decides at its end whether it waits (removed_count > 0).
    IF NEW.activated_at IS NULL AND NEW.declined_at IS NULL AND NEW.removed_count > 0
       AND OLD.removed_count IS DISTINCT FROM NEW.removed_count THEN
      PERFORM notify_event('control.awaiting_second_person',
        jsonb_build_object('what', 'list_version', 'id', NEW.id::text, 'by', NEW.imported_by),
        jsonb_build_object('permission', 'monitoring.write', 'except', NEW.imported_by), 'list_version:' || NEW.id);
    END IF;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER monitoring_rule_versions_notify AFTER INSERT OR UPDATE OF retire_requested_by
  ON monitoring_rule_versions FOR EACH ROW EXECUTE FUNCTION notify_second_person();
CREATE TRIGGER monitoring_snooze_requests_notify AFTER INSERT ON monitoring_snooze_requests
  FOR EACH ROW EXECUTE FUNCTION notify_second_person();
CREATE TRIGGER monitoring_alerts_release_notify AFTER UPDATE OF release_requested_by ON monitoring_alerts
  FOR EACH ROW EXECUTE FUNCTION notify_second_person();
CREATE TRIGGER money_out_policies_notify AFTER INSERT ON money_out_policies
  FOR EACH ROW EXECUTE FUNCTION notify_second_person();
CREATE TRIGGER screening_list_versions_notify AFTER UPDATE OF removed_count ON screening_list_versions
  FOR EACH ROW EXECUTE FUNCTION notify_second_person();
