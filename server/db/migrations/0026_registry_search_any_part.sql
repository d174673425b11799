-- The registry searched by any part of a name, label or UID ("000420" finds client000420), indexed at 100,000
-- sub-accounts and more: trigram indexes (pg_trgm, a contrib extension of PostgreSQL that PGlite ships too;
-- server/db/pglite.ts loads it) serve `lower(col) LIKE '%part%'` for a part of three characters or more.
-- Shorter parts keep the prefix search of migration 0012 (a trigram index cannot narrow one or two characters).
-- A small pending list (64 kB, the least): with the default 4 MB, a registry seeded after the index was made
-- is costed as a scan of that list until a vacuum (PGlite has no autovacuum), and the planner walked the
-- whole registry instead. Without a pending list at all (fastupdate off), seeding 100,000 took three times as long.
-- The extension goes into a schema of its own unless the database has it already, wherever that is: the
-- indexes name its operator class by schema, and the queries use only LIKE, which needs no schema.
DO $$
DECLARE
  ext text;
BEGIN
  SELECT extnamespace::regnamespace::text INTO ext FROM pg_extension WHERE extname = 'pg_trgm';
  IF ext IS NULL THEN
    CREATE SCHEMA IF NOT EXISTS brokerdesk_ext;
    CREATE EXTENSION pg_trgm WITH SCHEMA brokerdesk_ext;
    ext := 'brokerdesk_ext';
  END IF;
  EXECUTE format('CREATE INDEX subaccounts_name_any_part ON subaccounts USING gin (lower(subaccount_name) %s.gin_trgm_ops) WITH (gin_pending_list_limit = 64)', ext);
  EXECUTE format('CREATE INDEX subaccounts_label_any_part ON subaccounts USING gin (lower(label) %s.gin_trgm_ops) WITH (gin_pending_list_limit = 64)', ext);
  EXECUTE format('CREATE INDEX subaccounts_uid_any_part ON subaccounts USING gin (sub_uid %s.gin_trgm_ops) WITH (gin_pending_list_limit = 64)', ext);
END
$$;
