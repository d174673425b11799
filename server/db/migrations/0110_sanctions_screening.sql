-- 0110_sanctions_screening: the sanctions and block lists (0100) consulted wherever an address appears.
-- - screening_address(text): the lookup key of an address, the same as lib/screening-address.ts (a property test
--   holds the two together): EVM hex and bech32 in lower case, every other form as written, trimmed.
-- - Two system rules of kind sanctioned_address, active from the start, high and holding: a deposit from a listed
--   source, a withdrawal request (open: requested or approved) to a listed destination. They are Brokerdesk's own:
--   never drafted, retired or snoozed by anyone (server/monitoring/system-rules.ts), and the alerts they raise are
--   released only by two people (a proposal and a confirmation) or by a list version that no longer lists the
--   address, itself confirmed by a second person.
-- - screenings: every screening of an address, kept as evidence: what, when, on which occasion, against which list
--   versions, and the result ("no match" too).
-- - A list version that lists fewer addresses than the one it follows waits for a second person before it is active.

CREATE FUNCTION screening_address(a text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN t ~ '^0[xX][0-9a-fA-F]{40}$'
      OR (length(t) <= 90 AND (t ~ '^[a-z]{1,20}1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{6,}$'
                              OR t ~ '^[A-Z]{1,20}1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{6,}$'))
    THEN lower(t) ELSE t END
  FROM (SELECT btrim(a, E' \t\n\r\f\v' || chr(160) || chr(8232) || chr(8233) || chr(65279) || chr(12288)) AS t) s
$$;

INSERT INTO monitoring_rules (id, name, created_by) VALUES
  ('5ac70000-0000-4000-8000-000000000001', 'Sanctions list: deposit from a listed address', 'brokerdesk'),
  ('5ac70000-0000-4000-8000-000000000002', 'Sanctions list: withdrawal to a listed address', 'brokerdesk');
INSERT INTO monitoring_rule_versions
  (id, rule_id, version, kind, params, severity, holds, state, author, activated_by, activated_at)
VALUES
  ('5ac70000-0000-4000-8000-000000000101', '5ac70000-0000-4000-8000-000000000001', 1, 'sanctioned_address',
   '{"side":"deposit_source"}', 'high', true, 'active', 'brokerdesk', 'brokerdesk:migration', now()),
  ('5ac70000-0000-4000-8000-000000000102', '5ac70000-0000-4000-8000-000000000002', 1, 'sanctioned_address',
   '{"side":"withdrawal_destination"}', 'high', true, 'active', 'brokerdesk', 'brokerdesk:migration', now());

-- Releasing a sanctions match: one person proposes (with a reason), another confirms.
ALTER TABLE monitoring_alerts
  ADD COLUMN release_requested_by text,
  ADD COLUMN release_requested_at timestamptz,
  ADD COLUMN release_reason text CHECK (release_reason IS NULL OR length(release_reason) BETWEEN 1 AND 500);
ALTER TABLE monitoring_alerts ADD CONSTRAINT monitoring_alerts_release_second_person
  CHECK (release_requested_by IS NULL OR status <> 'cleared' OR lower(cleared_by) <> lower(release_requested_by));

CREATE TABLE screenings (
  id           bigserial PRIMARY KEY,
  subject      text NOT NULL CHECK (subject IN ('withdrawal', 'deposit', 'destination')),
  subject_id   text NOT NULL,
  sub_uid      text,
  address      text NOT NULL,
  occasion     text NOT NULL CHECK (occasion IN ('request', 'approval', 'send', 'proposal', 'rescreen', 'deposit')),
  -- The versions screened against: [{list, versionId, sha256}], one per list active then ([] when no list was).
  versions     jsonb NOT NULL,
  matched      boolean NOT NULL,
  -- [{list, versionId, asset, listedAs, partyName, partyRef, reason}]
  matches      jsonb NOT NULL DEFAULT '[]',
  rescreen_id  bigint,
  screened_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX screenings_subject ON screenings (subject, subject_id, screened_at, id);

-- A rescreen of everything Brokerdesk holds against the lists as they stand, after a version became active:
-- deposit sources, address-book entries, open requests. Run as a job; its progress and report kept here.
CREATE TABLE screening_rescreens (
  id            bigserial PRIMARY KEY,
  version_id    bigint,
  state         text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed')),
  requested_by  text NOT NULL,
  requested_at  timestamptz NOT NULL DEFAULT now(),
  started_at    timestamptz,
  finished_at   timestamptz,
  progress      jsonb NOT NULL DEFAULT '{}',
  report        jsonb,
  error         text
);

-- A version that drops addresses the active one lists is a control turned down: active only once a second person
-- (not its importer) confirms it. Until then activated_at is NULL and lookups do not use it.
ALTER TABLE screening_list_versions ALTER COLUMN activated_at DROP NOT NULL;
ALTER TABLE screening_list_versions
  ADD COLUMN removed_count integer NOT NULL DEFAULT 0,
  ADD COLUMN added_count integer,
  ADD COLUMN confirmed_by text,
  ADD COLUMN confirmed_at timestamptz,
  ADD COLUMN declined_by text,
  ADD COLUMN declined_at timestamptz;
ALTER TABLE screening_list_versions ADD CONSTRAINT screening_list_versions_second_person
  CHECK (confirmed_by IS NULL OR lower(confirmed_by) <> lower(imported_by));

-- An address-book entry's latest screening: listed entries cannot be approved or used.
ALTER TABLE withdrawal_destinations
  ADD COLUMN listed jsonb,
  ADD COLUMN screened_at timestamptz;
