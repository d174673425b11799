-- 0004_security: sign-out that ends a session everywhere, and separation of duties for approvers.

-- A session token's id (the jti claim) once its holder signed out: every instance refuses the token from
-- then on. Kept until the token could no longer be used anyway (its absolute expiry), then deleted.
CREATE TABLE revoked_sessions (
  jti         text PRIMARY KEY CHECK (length(jti) BETWEEN 16 AND 64),
  user_id     uuid,
  expires_at  timestamptz NOT NULL,
  revoked_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX revoked_sessions_expires ON revoked_sessions (expires_at);

-- Separation of duties: an account an admin created, promoted to an approving role or whose password an
-- admin set may not approve until its holder has changed their own password (approver_hold_at is older
-- than password_changed_at) and the cool-off has passed since. NULL approver_hold: nothing pending.
ALTER TABLE staff_users ADD COLUMN approver_hold text
  CHECK (approver_hold IN ('created-by-admin', 'promoted-by-admin', 'password-set-by-admin'));
ALTER TABLE staff_users ADD COLUMN approver_hold_at timestamptz;
ALTER TABLE staff_users ADD COLUMN approver_hold_by text;
-- The holder's own last password change (not an admin's reset).
ALTER TABLE staff_users ADD COLUMN password_changed_at timestamptz;
