-- Sanctions and block lists as data. Each import of a list is a version: the file's SHA-256, its publish date,
-- the count of addresses per asset, who imported it and when. A version is active for its list from
-- activated_at until the next version of the same list is; every version stays, so "which version was active at
-- T" is the newest one activated at or before T. Imports are one transaction each: a file that fails to parse
-- leaves no version and no entry.
CREATE TABLE screening_list_versions (
  id             bigserial PRIMARY KEY,
  list           text NOT NULL CHECK (list ~ '^[a-z0-9][a-z0-9-]{0,39}$'),
  format         text NOT NULL CHECK (format IN ('sdn', 'csv', 'ftm')),
  sha256         text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  file_name      text CHECK (file_name IS NULL OR length(file_name) BETWEEN 1 AND 200),
  published_at   timestamptz,
  counts         jsonb NOT NULL,
  address_count  integer NOT NULL CHECK (address_count >= 0),
  imported_by    text NOT NULL,
  imported_at    timestamptz NOT NULL DEFAULT now(),
  activated_at   timestamptz NOT NULL DEFAULT now(),
  audit_intent_id bigint
);
CREATE INDEX screening_list_versions_active ON screening_list_versions (list, activated_at DESC, id DESC);

-- One row per listed address of a version (an address listed twice, for two parties or assets, is two rows).
-- The key leads with (version, normalised address): the lookup. Written only by the import, in the same
-- transaction as its version, so no foreign key check per row.
CREATE TABLE screening_list_entries (
  version_id  bigint NOT NULL,
  address     text NOT NULL,
  ordinal     integer NOT NULL,
  asset       text NOT NULL,
  listed_as   text NOT NULL,
  party_name  text,
  party_ref   text,
  reason      text,
  PRIMARY KEY (version_id, address, ordinal)
);
