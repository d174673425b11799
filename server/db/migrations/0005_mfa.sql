-- 0005_mfa: second factors for staff: TOTP and passkeys (WebAuthn), one-time recovery
-- codes, short-lived WebAuthn challenges and factor proofs, and when an admin last reset someone's factors.
-- Plain SQL for PGlite and PostgreSQL 15+.

CREATE TABLE staff_factors (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id          uuid NOT NULL REFERENCES staff_users (id) ON DELETE CASCADE,
  kind             text NOT NULL CHECK (kind IN ('totp', 'passkey')),
  label            text NOT NULL CHECK (length(label) BETWEEN 1 AND 64),
  -- TOTP: the base32 secret, AES-256-GCM under a key derived from NEXTAUTH_SECRET by HKDF
  -- (server/auth/mfa/crypto.ts), bound to this row's id; never stored or logged in clear.
  totp_secret_enc  text,
  -- The last 30-second step a code was accepted for: a code is never accepted twice (replay).
  totp_last_step   bigint,
  -- Passkey: the credential id (base64url), its COSE public key (base64url), the signature counter.
  credential_id    text UNIQUE,
  public_key       text,
  counter          bigint CHECK (counter >= 0),
  -- Comma-separated authenticator transports (usb, nfc, ble, internal, hybrid...), as the browser reported.
  transports       text,
  -- NULL while a TOTP enrolment waits for its first code; such a row is not a factor yet.
  confirmed_at     timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  last_used_at     timestamptz,
  CHECK (
    (kind = 'totp' AND totp_secret_enc IS NOT NULL AND credential_id IS NULL AND public_key IS NULL)
    OR (kind = 'passkey' AND credential_id IS NOT NULL AND public_key IS NOT NULL AND counter IS NOT NULL
        AND totp_secret_enc IS NULL AND confirmed_at IS NOT NULL)
  )
);
CREATE INDEX staff_factors_user ON staff_factors (user_id);

-- Ten per user, shown once; only an HMAC-SHA256 of each is kept. Using one sets used_at (one UPDATE
-- guarded by used_at IS NULL, so two racing uses of one code cannot both pass).
CREATE TABLE staff_recovery_codes (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id     uuid NOT NULL REFERENCES staff_users (id) ON DELETE CASCADE,
  code_hash   text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  used_at     timestamptz,
  UNIQUE (user_id, code_hash)
);

-- Single-use, short-lived server-side state: a WebAuthn challenge (registration or authentication) or a
-- factor proof (the hash of what a verified factor hands the browser, redeemed once by the session update).
CREATE TABLE staff_mfa_tickets (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id     uuid NOT NULL REFERENCES staff_users (id) ON DELETE CASCADE,
  purpose     text NOT NULL CHECK (purpose IN ('passkey-register', 'passkey-verify', 'proof')),
  secret      text NOT NULL,
  method      text CHECK (method IN ('totp', 'passkey', 'recovery')),
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL
);
CREATE INDEX staff_mfa_tickets_user ON staff_mfa_tickets (user_id, purpose);

-- When an admin last removed this user's factors and who did it; the user is told at their next sign-in
-- (mfa_reset_seen_at records that they were).
ALTER TABLE staff_users ADD COLUMN mfa_reset_at timestamptz;
ALTER TABLE staff_users ADD COLUMN mfa_reset_by text;
ALTER TABLE staff_users ADD COLUMN mfa_reset_seen_at timestamptz;
