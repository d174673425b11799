// The lookup key in SQL (screening_address, migrations 0110 and 0116) and in TypeScript (lib/screening-address.ts)
// are one function: the same answer for addresses of every form, their case variants, white space around them
// (every character JavaScript's trim removes), letters such as "v" at either end, and arbitrary text. On PGlite,
// and on PostgreSQL with TEST_DATABASE_URL.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normaliseAddress } from "@/lib/screening-address";
import { databaseTestBed, testEngines } from "@/server/db/testing";

const WHITE = [..."\t\n\x0B\f\r \u00A0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A"].concat(
  [..."\u2028\u2029\u202F\u205F\u3000\uFEFF"],
);
const hex = (n: number) =>
  fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEF"), minLength: n, maxLength: n });
const base58 = fc.string({
  unit: fc.constantFrom(..."123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"),
  minLength: 25,
  maxLength: 44,
});
const bech = fc
  .tuple(
    fc.constantFrom("bc", "tb", "ltc", "BC"),
    fc.string({ unit: fc.constantFrom(..."qpzry9x8gf2tvdw0s3jn54khce6mua7l"), minLength: 6, maxLength: 60 }),
  )
  .map(([hrp, data]) => (hrp === "BC" ? `BC1${data.toUpperCase()}` : `${hrp}1${data}`));
const body = fc.oneof(
  hex(40).map((h) => `0x${h}`),
  hex(40).map((h) => `0X${h}`),
  hex(64).map((h) => `0x${h}`),
  hex(63).map((h) => `0x${h}`),
  base58,
  bech,
  fc.string(),
);
const pad = fc.array(fc.constantFrom(...WHITE, "v", "V"), { maxLength: 3 }).map((a) => a.join(""));
const address = fc.tuple(pad, body, pad).map(([a, b, c]) => a + b + c);

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[screening][address key] on $engine", (engine) => {
  const t = databaseTestBed(engine);

  it("[screening][address key] screening_address answers what normaliseAddress does", async () => {
    const samples = [
      ...fc.sample(address, { numRuns: 600, seed: 46 }),
      "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSv",
      "vTQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE",
      "\x0B0xABCDEF0123456789abcdef0123456789ABCDEF01\u3000",
    ].filter((s) => !s.includes("\u0000"));
    const { rows } = await t.db.query<{ a: string; k: string }>(
      `SELECT a, screening_address(a) AS k FROM unnest($1::text[]) WITH ORDINALITY AS s(a, i) ORDER BY i`,
      [samples],
    );
    expect(rows.map((r) => r.k)).toEqual(samples.map(normaliseAddress));
  });
});
