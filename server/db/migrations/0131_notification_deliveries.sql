-- 0131_notification_deliveries: the e-mail channel of notifications (server/notifications/deliver.ts). Each event
-- (0130) is fanned out to its recipients once, marked in the same transaction as the deliveries it makes; events are
-- claimed with SKIP LOCKED, so two instances fan out different ones, and each recipient's delivery is a row keyed
-- by (event, recipient, channel), so nothing is made twice. A mark per event, not a high-water mark: an event whose
-- number was taken early in a long transaction commits after higher ones, and is still fanned out when it does.
-- A delivery is claimed for sending with a lease (SKIP LOCKED): two instances never send one at once, and a sender
-- that died is taken over once its lease runs out.

ALTER TABLE notification_events ADD COLUMN fanned_out_at timestamptz;
-- What came before e-mail existed is not mailed now.
UPDATE notification_events SET fanned_out_at = now();
CREATE INDEX notification_events_to_fan_out ON notification_events (id) WHERE fanned_out_at IS NULL;

-- Each person's choices per event type and channel; a type without a row takes its role's default
-- (lib/api/notifications/preferences.ts). Their digest's time of day, in their time zone.
CREATE TABLE notification_preferences (
  email    text NOT NULL,
  type     text NOT NULL,
  channel  text NOT NULL CHECK (channel IN ('app', 'email')),
  mode     text NOT NULL CHECK (mode IN ('immediate', 'digest', 'never')),
  PRIMARY KEY (email, type, channel)
);
CREATE TABLE notification_settings (
  email       text PRIMARY KEY,
  digest_at   text NOT NULL DEFAULT '08:00' CHECK (digest_at ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  time_zone   text NOT NULL DEFAULT 'UTC' CHECK (length(time_zone) BETWEEN 1 AND 64)
);

CREATE TABLE notification_deliveries (
  id           bigserial PRIMARY KEY,
  event_id     bigint NOT NULL REFERENCES notification_events (id),
  recipient    text NOT NULL,
  channel      text NOT NULL CHECK (channel IN ('email')),
  mode         text NOT NULL CHECK (mode IN ('immediate', 'digest')),
  state        text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sending', 'sent', 'failed')),
  attempts     integer NOT NULL DEFAULT 0,
  -- When it may be sent: now for an immediate one, the recipient's next digest time for a digest one, later
  -- after a failed attempt (backoff).
  due_at       timestamptz NOT NULL DEFAULT now(),
  lease_until  timestamptz,
  last_error   text,
  sent_at      timestamptz,
  message_id   text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (event_id, recipient, channel)
);
CREATE INDEX notification_deliveries_due ON notification_deliveries (due_at) WHERE state IN ('queued', 'sending');
