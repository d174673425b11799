-- 0116_screening_address_inline: the SQL lookup key of an address (0110), corrected and made cheap.
-- - Corrected: 0110 trimmed E'\v', which PostgreSQL reads as the letter "v" (its escape strings have no \v), so
--   an address beginning or ending with "v" (base58 allows it) lost that letter and never matched its list entry;
--   and it trimmed fewer of the white-space characters than lib/screening-address.ts (JavaScript's trim) does.
--   Now the same 25: tab, line feed, vertical tab, form feed, carriage return, space, U+00A0, U+1680,
--   U+2000 to U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF.
-- - Cheap: expressions without FROM, so the planner inlines them into the query that calls them (0110's subquery
--   form was called as a function, about 18 µs a row: most of a rescreen of a million deposits).
CREATE FUNCTION screening_white_space() RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT E'\t\n\x0B\f\r \u00A0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A'
      || E'\u2028\u2029\u202F\u205F\u3000\uFEFF'
$$;

CREATE FUNCTION screening_address_key(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN t ~ '^0[xX]([0-9a-fA-F]{40}|[0-9a-fA-F]{64})$'
      OR (length(t) <= 90
          AND t ~ '^([a-z]{1,20}1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{6,}|[A-Z]{1,20}1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{6,})$')
    THEN lower(t) ELSE t END
$$;

CREATE OR REPLACE FUNCTION screening_address(a text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT screening_address_key(btrim(a, screening_white_space()))
$$;
