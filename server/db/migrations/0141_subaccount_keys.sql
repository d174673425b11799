-- 0141_subaccount_keys: sub-account API keys held as data (server/platform/key-store.ts). One row per version of a
-- sub-account's key, its key, secret and passphrase (or RSA private key) sealed with AES-256-GCM under a key derived
-- with HKDF from KEY_SEALING_SECRET (server/platform/key-seal.ts): the database never holds them in the clear.
-- A version is added 'pending', made 'active' by a second admin (never its adder: the CHECK backs the workflow), and
-- 'superseded' when a later version of the same sub-account is approved; disabling the key ends every version
-- ('disabled'). At most one active version per sub-account; the credential store signs `sub<UID>` with it.
CREATE TABLE subaccount_keys (
  sub_uid      text        NOT NULL,
  version      integer     NOT NULL CHECK (version >= 1),
  kind         text        NOT NULL CHECK (kind IN ('hmac', 'rsa')),
  -- "v1.<iv>.<tag>.<ciphertext>" (base64url), sealed with the UID and version as associated data.
  sealed       text        NOT NULL,
  -- The API key's last four characters, to tell versions apart on the page (the key itself is sealed).
  key_hint     text        NOT NULL,
  state        text        NOT NULL CHECK (state IN ('pending', 'active', 'superseded', 'disabled')),
  added_by     text        NOT NULL,
  added_at     timestamptz NOT NULL DEFAULT now(),
  approved_by  text,
  approved_at  timestamptz,
  disabled_by  text,
  disabled_at  timestamptz,
  PRIMARY KEY (sub_uid, version),
  CHECK (approved_by IS NULL OR lower(approved_by) <> lower(added_by)),
  CHECK (state NOT IN ('active', 'superseded') OR approved_by IS NOT NULL)
);
CREATE UNIQUE INDEX subaccount_keys_one_active ON subaccount_keys (sub_uid) WHERE state = 'active';
CREATE UNIQUE INDEX subaccount_keys_one_pending ON subaccount_keys (sub_uid) WHERE state = 'pending';

-- Bumped in the transaction of every change (under its row lock, so changes are counted one after the other): an
-- instance compares it before a database key's call, and reloads its keys when it moved.
CREATE TABLE subaccount_key_generation (
  one  boolean PRIMARY KEY DEFAULT true CHECK (one),
  gen  bigint  NOT NULL
);
INSERT INTO subaccount_key_generation (one, gen) VALUES (true, 0);
