-- 0175_second_person_notices: the decisions that came with leverage, keys and webhooks wait for a second person
-- like those of 0130, and that person hears of it (control.awaiting_second_person, never to the one who asked):
-- a single leverage change or a plan the leverage policy gave a second lead, a leverage policy draft, a
-- sub-account key (added or rotated) waiting for a second admin, a webhook endpoint (added, or its events widened)
-- waiting for a second admin. The payload names the decision and who asked; what it is about stays on its page.
CREATE FUNCTION notify_second_person_more() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'leverage_changes' THEN
    IF NEW.state = 'waiting' THEN
      PERFORM notify_event('control.awaiting_second_person',
        jsonb_build_object('what', 'leverage_change', 'id', NEW.id::text, 'by', NEW.requested_by),
        jsonb_build_object('permission', 'leverage.write', 'except', NEW.requested_by), 'leverage_change:' || NEW.id);
    END IF;
  ELSIF TG_TABLE_NAME = 'leverage_plans' THEN
    IF NEW.state = 'waiting' THEN
      PERFORM notify_event('control.awaiting_second_person',
        jsonb_build_object('what', 'leverage_plan', 'id', NEW.id::text, 'by', NEW.created_by),
        jsonb_build_object('permission', 'leverage.write', 'except', NEW.created_by), 'leverage_plan:' || NEW.id);
    END IF;
  ELSIF TG_TABLE_NAME = 'leverage_policies' THEN
    IF NEW.state = 'draft' THEN
      PERFORM notify_event('control.awaiting_second_person',
        jsonb_build_object('what', 'leverage_policy', 'id', NEW.version::text, 'by', NEW.drafted_by),
        jsonb_build_object('permission', 'policy.approve', 'except', NEW.drafted_by),
        'leverage_policy:' || NEW.version);
    END IF;
  ELSIF TG_TABLE_NAME = 'subaccount_keys' THEN
    -- A staff member's (an e-mail); the demo's keys, added by the start-up and approved by the demo admin in the
    -- same run, ask nobody.
    IF NEW.state = 'pending' AND position('@' IN NEW.added_by) > 0 THEN
      PERFORM notify_event('control.awaiting_second_person',
        jsonb_build_object('what', 'subaccount_key', 'id', NEW.sub_uid || '/' || NEW.version, 'by', NEW.added_by),
        jsonb_build_object('permission', 'subaccountKeys.approve', 'except', NEW.added_by),
        'subaccount_key:' || NEW.sub_uid || '/' || NEW.version);
    END IF;
  ELSIF TG_TABLE_NAME = 'webhook_endpoints' THEN
    IF TG_OP = 'INSERT' AND NEW.state = 'proposed' THEN
      PERFORM notify_event('control.awaiting_second_person',
        jsonb_build_object('what', 'webhook', 'id', NEW.id::text, 'by', NEW.created_by),
        jsonb_build_object('permission', 'webhooks.manage', 'except', NEW.created_by), 'webhook:' || NEW.id);
    ELSIF TG_OP = 'UPDATE' AND NEW.proposed_events IS NOT NULL AND OLD.proposed_events IS NULL THEN
      PERFORM notify_event('control.awaiting_second_person',
        jsonb_build_object('what', 'webhook', 'id', NEW.id::text, 'by', NEW.proposed_by),
        jsonb_build_object('permission', 'webhooks.manage', 'except', NEW.proposed_by), 'webhook:' || NEW.id);
    END IF;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER leverage_changes_notify AFTER INSERT ON leverage_changes
  FOR EACH ROW EXECUTE FUNCTION notify_second_person_more();
CREATE TRIGGER leverage_plans_notify AFTER INSERT ON leverage_plans
  FOR EACH ROW EXECUTE FUNCTION notify_second_person_more();
CREATE TRIGGER leverage_policies_notify AFTER INSERT ON leverage_policies
  FOR EACH ROW EXECUTE FUNCTION notify_second_person_more();
CREATE TRIGGER subaccount_keys_notify AFTER INSERT ON subaccount_keys
  FOR EACH ROW EXECUTE FUNCTION notify_second_person_more();
CREATE TRIGGER webhook_endpoints_notify AFTER INSERT OR UPDATE OF proposed_events ON webhook_endpoints
  FOR EACH ROW EXECUTE FUNCTION notify_second_person_more();
