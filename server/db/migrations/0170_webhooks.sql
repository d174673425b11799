-- 0170_webhooks: notifications to endpoints an admin adds (server/notifications/webhook-*.ts). An endpoint is a URL,
-- a body format, an audience role (what it may be sent is what that role may read, the bell's and mail's rule), its
-- own secret (sealed; shown once) and the events it is subscribed to. Adding one, or widening its events, sends data
-- out: it waits (proposed_events) until a second admin in good standing confirms it with a fresh factor.
-- Each event is fanned out to the endpoints once (its own mark, beside e-mail's), a delivery row per (event,
-- endpoint), claimed with a lease (SKIP LOCKED) as e-mail's are, retried with backoff until give_up_at.

CREATE TABLE webhook_endpoints (
  id               bigserial PRIMARY KEY,
  url              text NOT NULL CHECK (length(url) BETWEEN 8 AND 2000),
  description      text NOT NULL DEFAULT '' CHECK (length(description) <= 200),
  format           text NOT NULL CHECK (format IN ('standard', 'slack', 'teams')),
  audience_role    text NOT NULL CHECK (audience_role IN ('compliance', 'broker', 'lead', 'admin')),
  -- What it receives now; what is asked on top, waiting for a second admin (NULL: nothing waits).
  events           text[] NOT NULL DEFAULT '{}',
  proposed_events  text[],
  proposed_by      text,
  proposed_at      timestamptz,
  state            text NOT NULL DEFAULT 'proposed' CHECK (state IN ('proposed', 'active', 'disabled')),
  -- AES-256-GCM under a key derived from NEXTAUTH_SECRET, bound to the endpoint's id; the previous one signs too
  -- until previous_until (a rotation's overlap), so a receiver can switch without losing a message.
  secret_sealed    text NOT NULL,
  previous_sealed  text,
  previous_until   timestamptz,
  created_by       text NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  approved_by      text,
  approved_at      timestamptz,
  -- Events from this moment on are delivered (none from before it was confirmed).
  active_since     timestamptz
);

ALTER TABLE notification_events ADD COLUMN hooks_fanned_out_at timestamptz;
UPDATE notification_events SET hooks_fanned_out_at = now();
CREATE INDEX notification_events_to_hook ON notification_events (id) WHERE hooks_fanned_out_at IS NULL;

CREATE TABLE webhook_deliveries (
  id           bigserial PRIMARY KEY,
  event_id     bigint NOT NULL REFERENCES notification_events (id),
  endpoint_id  bigint NOT NULL REFERENCES webhook_endpoints (id),
  -- The webhook-id header: the same on every attempt, "send again" included (receivers de-duplicate on it).
  message_id   text NOT NULL UNIQUE,
  -- withheld: not sent, because the endpoint's role may no longer read it or it no longer subscribes to it.
  state        text NOT NULL DEFAULT 'queued'
               CHECK (state IN ('queued', 'sending', 'sent', 'failed', 'withheld')),
  attempts     integer NOT NULL DEFAULT 0,
  due_at       timestamptz NOT NULL DEFAULT now(),
  lease_until  timestamptz,
  give_up_at   timestamptz NOT NULL DEFAULT now() + interval '24 hours',
  last_status  integer,
  last_error   text,
  last_attempt_at timestamptz,
  sent_at      timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (due_at) WHERE state IN ('queued', 'sending');
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, id DESC);

-- Escalation: an approval nobody acted on is raised once per level (every lead, then admin).
CREATE UNIQUE INDEX notification_events_escalated_once ON notification_events (type, subject)
  WHERE type = 'withdrawal.escalated';
