-- 0013_registry_by_name: pickers and the registry page list sub-accounts by the name they show
-- (name, else label, else UID), a keyset page at a time at 100,000 sub-accounts and more. "C" collation: the
-- same order on PGlite and on any PostgreSQL whatever its locale, and the keyset comparison uses the index.
CREATE INDEX subaccounts_by_name ON subaccounts ((lower(coalesce(subaccount_name, label, sub_uid)) COLLATE "C"), sub_uid);
