-- The leverage policy: ordered rules, each naming a product type and symbol (or any), the most leverage a change
-- may ask for, the leverage at or above which a single change needs a second lead, and the number of targets at
-- or above which a plan needs one (server/leverage/policy/). Versions are kept as the money-out policy's are
-- (0031): an admin drafts, another admin in good standing publishes with a fresh factor; at most one is
-- published at a time, and none published means every change is allowed, as before the policy existed.
CREATE TABLE leverage_policies (
  -- 1, 2, … in the order drafted.
  version       integer PRIMARY KEY CHECK (version > 0),
  state         text NOT NULL DEFAULT 'draft' CHECK (state IN ('draft', 'published', 'superseded', 'discarded')),
  -- The rules as lib/leverage-policy.ts's leverageRulesSchema parses them (checked before every write).
  rules         jsonb NOT NULL,
  note          text NOT NULL DEFAULT '' CHECK (length(note) <= 500),
  drafted_by    text NOT NULL,
  drafted_at    timestamptz NOT NULL DEFAULT now(),
  published_by  text,
  published_at  timestamptz,
  superseded_at timestamptz,
  CONSTRAINT leverage_policy_publisher_not_author CHECK (
    published_by IS NULL OR lower(published_by) <> lower(drafted_by)
  ),
  CONSTRAINT leverage_policy_published_has_who CHECK (
    state IN ('draft', 'discarded') OR (published_by IS NOT NULL AND published_at IS NOT NULL)
  )
);
CREATE UNIQUE INDEX leverage_policies_one_published ON leverage_policies ((true)) WHERE state = 'published';

