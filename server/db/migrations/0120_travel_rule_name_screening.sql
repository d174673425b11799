-- 0120_travel_rule_name_screening: the Travel Rule's names matched against the sanctions lists' party names.
-- - screening_list_parties: each list version's distinct party names (SDN: the primary alias's name parts; FtM: the
--   holder's caption; a CSV block list has none) with their key (lib/name-key.ts: NFKD, no marks, lower case, words
--   sorted), written by the import with the version. A version holds hundreds of parties against up to a million
--   addresses, so the names are indexed here rather than beside every entry. Versions imported before this
--   migration are copied below without a key; the key is computed the first time a name is screened
--   (server/screening/names.ts).
-- - withdrawal_travel_rule_names: the names a request's IVMS101 data carries (originator and beneficiary persons,
--   the beneficiary's VASP), each with its spellings as written (exact matches) and its key, written with the request.
-- - A system rule of kind sanctioned_name, active from the start, high and holding: an open request one of whose
--   names is a party name of the active version of any list, exactly or by its key. A lead for compliance's
--   review, not a confirmed hit: released as any hold is (docs/travel-rule.md, "Name screening").

CREATE TABLE screening_list_parties (
  version_id  bigint NOT NULL,
  party_name  text NOT NULL,
  name_key    text,
  PRIMARY KEY (version_id, party_name)
);
CREATE INDEX screening_list_parties_key ON screening_list_parties (name_key, version_id);
CREATE INDEX screening_list_parties_name ON screening_list_parties (party_name, version_id);
CREATE INDEX screening_list_parties_unkeyed ON screening_list_parties (version_id) WHERE name_key IS NULL;

INSERT INTO screening_list_parties (version_id, party_name)
  SELECT DISTINCT version_id, party_name FROM screening_list_entries WHERE party_name IS NOT NULL AND party_name <> '';

CREATE TABLE withdrawal_travel_rule_names (
  request_id  uuid NOT NULL REFERENCES withdrawal_requests (id),
  ordinal     integer NOT NULL,
  role        text NOT NULL CHECK (role IN ('originator', 'beneficiary', 'beneficiaryVASP')),
  name        text NOT NULL,
  spellings   text[] NOT NULL,
  -- NULL when the name has no word (punctuation only): it matches nothing by its key.
  name_key    text,
  PRIMARY KEY (request_id, ordinal)
);

INSERT INTO monitoring_rules (id, name, created_by) VALUES
  ('5ac70000-0000-4000-8000-000000000003', 'Sanctions list: a Travel Rule name is a listed party''s', 'brokerdesk');
INSERT INTO monitoring_rule_versions
  (id, rule_id, version, kind, params, severity, holds, state, author, activated_by, activated_at)
VALUES
  ('5ac70000-0000-4000-8000-000000000103', '5ac70000-0000-4000-8000-000000000003', 1, 'sanctioned_name',
   '{}', 'high', true, 'active', 'brokerdesk', 'brokerdesk:migration', now());
