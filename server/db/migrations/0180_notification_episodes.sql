-- 0180_notification_episodes: a condition that lasts (the ledger sync behind its schedule, the platform failing) is
-- raised once per episode, not once per check. A row here is an open episode: the check that finds the condition
-- holding inserts it (ON CONFLICT DO NOTHING, so of several instances checking at once exactly one does) and raises
-- the event with the subject 'episode:<episode>' in the same statement (notification_events_once makes a second
-- raise of one episode impossible anyway); the check that finds the condition over deletes it, so the next episode
-- gets a new number and is raised again.
CREATE TABLE notification_episodes (
  kind       text PRIMARY KEY CHECK (kind IN ('sync.behind', 'platform.down')),
  episode    bigserial NOT NULL,
  opened_at  timestamptz NOT NULL DEFAULT now()
);
