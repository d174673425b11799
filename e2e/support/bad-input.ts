// Arbitraries of invalid input for the bad-input suite. Each case is a request that is valid
// except for one named field (so a refusal must name that field), or a body that is not usable at all.
import fc from "fast-check";

/** One invalid request. `field` is what the 422 must name; null when the failure is the body as a whole. */
export type BadCase = {
  why: string;
  expect: "field" | "body" | "content-type" | "forbidden";
  field: string | null;
  /** GET: the query string (without "?"). */
  query?: string;
  /** POST/PATCH: the raw body text, sent as is. */
  body?: string;
  contentType?: string | null;
  headers?: Record<string, string>;
};

export const MISSING = Symbol("missing");
type Value = unknown;

/** JSON text of the entries in order (so duplicate and prototype-like keys reach the server as written). */
export function jsonText(entries: [string, Value][]): string {
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(",")}}`;
}

/** Keys a careless server could trip over; all unknown to every schema. */
const EXTRA_KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "isAdmin",
  "role_",
  "x",
] as const;
const extras = fc.array(
  fc.tuple(
    fc.constantFrom(...EXTRA_KEYS),
    fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.constant({ isAdmin: true })),
  ),
  {
    maxLength: 2,
  },
);

/** Replaces (or removes) one field of a valid input. */
function withField(base: Record<string, Value>, field: string, value: Value): [string, Value][] {
  const entries = Object.entries(base).filter(([k]) => k !== field);
  return value === MISSING ? entries : [...entries, [field, value]];
}

/** A JSON-body case: `base` valid, `field` replaced by each value `bad` yields. */
export function bodyField(
  base: fc.Arbitrary<Record<string, Value>>,
  field: string,
  bad: fc.Arbitrary<Value>,
  why: string,
  opts: { named?: string; headers?: Record<string, string> } = {},
): fc.Arbitrary<BadCase> {
  return fc.tuple(base, bad, extras).map(([b, v, x]) => ({
    why: `${why}: ${field}=${v === MISSING ? "(missing)" : JSON.stringify(v)}`,
    expect: "field" as const,
    field: opts.named ?? field,
    body: jsonText([...x.map(([k, val]): [string, Value] => [k, val]), ...withField(b, field, v)]),
    headers: opts.headers,
  }));
}

/** A body-level case (the whole body, not a field): a 422 naming `_`, or 400/415. */
export function bodyWhole(body: fc.Arbitrary<string>, why: string): fc.Arbitrary<BadCase> {
  return body.map((b) => ({
    why: `${why}: ${JSON.stringify(b).slice(0, 120)}`,
    expect: "body" as const,
    field: null,
    body: b,
  }));
}

/** A query-string case: `base` valid, `field` replaced (the invalid value comes last, so it is the one read). */
export function queryField(
  base: fc.Arbitrary<Record<string, string>>,
  field: string,
  bad: fc.Arbitrary<string | typeof MISSING>,
  why: string,
  opts: { named?: string } = {},
): fc.Arbitrary<BadCase> {
  return fc.tuple(base, bad, fc.boolean(), fc.boolean()).map(([b, v, duplicate, junk]) => {
    const q = new URLSearchParams();
    if (junk) q.append("__proto__", "x");
    for (const [k, val] of Object.entries(b)) if (k !== field) q.append(k, val);
    // A valid value first and the bad one after it: the route reads the last one.
    if (v !== MISSING) {
      if (duplicate && b[field] !== undefined) q.append(field, b[field]);
      q.append(field, v);
    }
    return {
      why: `${why}: ${field}=${v === MISSING ? "(missing)" : JSON.stringify(v)}`,
      expect: "field" as const,
      field: opts.named ?? field,
      query: q.toString(),
    };
  });
}

/** A query-string case whose whole input is given (cross-field rules: spans, inverted windows). */
export function queryWhole(
  input: fc.Arbitrary<Record<string, string>>,
  field: string,
  why: string,
): fc.Arbitrary<BadCase> {
  return input.map((p) => ({
    why: `${why}: ${JSON.stringify(p)}`,
    expect: "field" as const,
    field,
    query: new URLSearchParams(p).toString(),
  }));
}

/** A JSON-body case whose whole input is given (cross-field rules). */
export function bodyWholeField(
  input: fc.Arbitrary<Record<string, Value>>,
  field: string,
  why: string,
): fc.Arbitrary<BadCase> {
  return input.map((p) => ({
    why: `${why}: ${JSON.stringify(p)}`,
    expect: "field" as const,
    field,
    body: jsonText(Object.entries(p)),
  }));
}

// ---------------------------------------------------------------------------------------------
// Values

const isDigits = (s: string) => /^\d+$/.test(s);

/** Not a numeric ID: letters, signs, decimals, exponents, spaces, non-ASCII digits, random text. */
export const notNumeric = fc.oneof(
  fc.constantFrom(
    "abc",
    "-1",
    "1.5",
    "1e12",
    "0x1F",
    " 123",
    "123 ",
    "１２３",
    "١٢٣",
    "12_3",
    "+5",
    "NaN",
    "Infinity",
    "../1",
    "1;2",
    "1%00",
  ),
  fc.string({ minLength: 1, maxLength: 24, unit: "binary" }).filter((s) => !isDigits(s)),
);

/** Not a Unix-ms timestamp: non-digits, empty, more than 16 digits, beyond the last instant a Date can hold. */
export const badTimestamp = fc.oneof(
  notNumeric,
  fc.constant(""),
  fc.stringMatching(/^[1-9]\d{16,24}$/),
  fc.bigInt({ min: 8_640_000_000_000_001n, max: 9_999_999_999_999_999n }).map(String),
  fc.constantFrom("1700000000000.5", "-1700000000000", "2024-01-01T00:00:00Z", "1,700,000,000,000"),
);

/** A `limit` outside [1, max] or not a whole number. */
export const badLimit = (max: number) =>
  fc.oneof(
    fc.constantFrom("0", "00", "-1", "1.5", "abc", "", " 5", "1e2", "0x10", "5 "),
    fc.integer({ min: max + 1, max: 2 ** 31 }).map(String),
    fc.stringMatching(/^[1-9]\d{11,30}$/),
    notNumeric,
  );

/** A string field that is absent or blank (spaces, tabs, newlines). */
export const blankOrMissing = fc.oneof(
  fc.constant<typeof MISSING>(MISSING),
  fc.constantFrom("", " ", "   ", "\t", "\n", " \r\n "),
);

/** JSON values that are not strings (for a field that must be a string). */
export const notAString = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 2 }),
);

/** A string not in `allowed`: case variants, padding, truncation, random text. */
export const notOneOf = (allowed: readonly string[], opts: { caseInsensitive?: boolean } = {}) => {
  const variants = allowed.flatMap((a) => [
    a.toLowerCase(),
    a.toUpperCase(),
    ` ${a}`,
    `${a} `,
    `${a}s`,
    a.slice(0, -1),
    `${a}\u0000`,
  ]);
  // Unicode letters whose upper case is ASCII (ſ → S, ı → I): a case-insensitive check must not let them through.
  const lookalikes = allowed.flatMap((a) => [a.toLowerCase().replace("s", "ſ"), a.toLowerCase().replace("i", "ı")]);
  const valid = (s: string) =>
    opts.caseInsensitive ? /^[A-Za-z-]+$/.test(s) && allowed.includes(s.toUpperCase()) : allowed.includes(s);
  return fc
    .oneof(fc.constantFrom(...variants, ...lookalikes, ""), fc.string({ maxLength: 20, unit: "binary" }))
    .filter((s) => !valid(s));
};

/** A string of `min`..`max` characters from a printable alphabet, for length limits. */
export const longText = (min: number, max: number) =>
  fc.string({ minLength: min, maxLength: max, unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789-_.") });

/** Bodies that are not JSON at all. */
export const notJson = fc.oneof(
  fc.constantFrom(
    "{",
    '{"a":',
    "not json",
    "{'a':1}",
    "[1,2",
    '{"x":1}}',
    "undefined",
    "{a:1}",
    "\u0000",
    "--boundary\r\n",
  ),
  fc.string({ minLength: 1, maxLength: 40, unit: "binary" }).filter((s) => {
    if (s.trim() === "") return false;
    try {
      JSON.parse(s);
      return false;
    } catch {
      return true;
    }
  }),
);

/** JSON texts whose value is not an object. */
export const notAnObject = fc
  .oneof(
    fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
    fc.integer(),
    fc.string({ maxLength: 10 }),
    fc.boolean(),
    fc.constant(null),
  )
  .map((v) => JSON.stringify(v));

/** Every POST route also gets these whole-body cases. */
export function bodyLevel(validBody: fc.Arbitrary<Record<string, Value>>): fc.Arbitrary<BadCase> {
  return fc.oneof(
    bodyWhole(notJson, "body is not JSON"),
    bodyWhole(notAnObject, "body is JSON but not an object"),
    fc
      .tuple(
        validBody,
        fc.constantFrom<string | null>(
          null,
          "text/plain",
          "application/x-www-form-urlencoded",
          "multipart/form-data; boundary=x",
          "application/jsonx",
          "text/json",
        ),
      )
      .map(([b, ct]) => ({
        why: `content type ${ct ?? "(none)"} with a valid body`,
        expect: "content-type" as const,
        field: null,
        body: JSON.stringify(b),
        contentType: ct,
      })),
  );
}
