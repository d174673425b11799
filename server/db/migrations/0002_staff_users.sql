-- 0002_staff_users: the staff who sign in to Brokerdesk and their sign-in. Plain SQL for PGlite and PostgreSQL 15+.

CREATE TABLE staff_users (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Stored lower-case so the UNIQUE constraint is case-insensitive and sign-in finds one row.
  email            text NOT NULL UNIQUE CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254),
  name             text,
  role             text NOT NULL CHECK (role IN ('compliance', 'broker', 'lead', 'admin')),
  -- NULL for staff who sign in only through single sign-on (OIDC).
  password_hash    text,
  disabled         boolean NOT NULL DEFAULT false,
  -- Every session token carries the version it was issued under; bumping it (disable, role change,
  -- password reset) makes every older session fail at its next request.
  session_version  integer NOT NULL DEFAULT 0 CHECK (session_version >= 0),
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  last_sign_in_at  timestamptz
);
-- "Is there another enabled admin?" is asked before every demotion or disable.
CREATE INDEX staff_users_enabled_role ON staff_users (role) WHERE NOT disabled;
