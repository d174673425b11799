-- 0135_held_notice_once: a request's "held by compliance" notice is raised once, also when two holding alerts of its
-- sub-account are inserted at once. 0130's trigger looked for an earlier notice before writing one; two
-- transactions each saw none (neither had committed) and both wrote it. A unique index makes the second wait for
-- the first and then write nothing.

-- A duplicate raised before this migration keeps its place in the inbox under a subject of its own.
UPDATE notification_events e SET subject = e.subject || '#' || e.id
  WHERE e.type = 'withdrawal.held'
    AND EXISTS (SELECT 1 FROM notification_events o WHERE o.type = e.type AND o.subject = e.subject AND o.id < e.id);
CREATE UNIQUE INDEX notification_events_held_once ON notification_events (subject) WHERE type = 'withdrawal.held';

CREATE OR REPLACE FUNCTION notify_alert() RETURNS trigger LANGUAGE plpgsql AS $$
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
    FOR w IN SELECT id, requested_by FROM withdrawal_requests
              WHERE sub_uid = NEW.sub_uid AND state = 'requested' LOOP
      -- Once per request: a second holding alert says nothing new to them (the index decides between two at once).
      INSERT INTO notification_events (type, payload, audience, subject)
        VALUES ('withdrawal.held', jsonb_build_object('withdrawalId', w.id::text, 'subUid', NEW.sub_uid),
                jsonb_build_object('email', w.requested_by), 'withdrawal:' || w.id)
        ON CONFLICT (subject) WHERE type = 'withdrawal.held' DO NOTHING;
    END LOOP;
  END IF;
  RETURN NULL;
END $$;
