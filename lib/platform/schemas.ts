// Shared building blocks of the catalog's request and response schemas. Everything the platform
// sends is a string; these schemas keep it that way and normalise its quirks once, here.
import * as z from "zod/mini";
import "@/lib/zod-english";

// In ./windows (no zod there), so the catalog's schema-free view can read them too.
export { DAY_MS, THREE_MONTHS_MS } from "./windows";
// In ./values (builds no schema), so browser code that needs only these does not build the ones below.
export {
  AMOUNT_MAX_INTEGER_DIGITS,
  MAX_TIME_MS,
  OI_PRODUCT_TYPES,
  PRODUCT_TYPES,
  WITHDRAWAL_COINS,
  isDecimalString,
  isMsTimestamp,
  type WithdrawalCoin,
} from "./values";
export { positiveDecimal, preprocess, type ZodMiniPreprocess } from "./value-schemas";
import { DIGITS, isMsTimestamp } from "./values";
import { preprocess } from "./value-schemas";

/** A required, non-empty string parameter; the message names the field. */
export const required = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .check(z.trim())
    .check(z.minLength(1, { error: `${field} is required` }));

/** Longer than any ID, chain or coin name the platform uses; a longer value would only be refused after a call. */
export const TEXT_PARAM_MAX = 128;

export const optionalText = (field: string) =>
  z.optional(
    z
      .string({ error: `${field} must be a string` })
      .check(z.maxLength(TEXT_PARAM_MAX, { error: `${field} must be at most ${TEXT_PARAM_MAX} characters` })),
  );

/** A trading pair as the platform names them: letters and digits (and "$", as in $DEGENUSDT), at most 32. */
const SYMBOL = /^[A-Za-z0-9$_]{1,32}$/;
const symbolMessage = (field: string) =>
  `${field} must be a trading pair such as BTCUSDT: at most 32 letters and digits`;

/** A required trading pair (surrounding blanks trimmed, as for every required parameter). */
export const symbolParam = (field = "symbol") =>
  required(field).check(z.regex(SYMBOL, { error: symbolMessage(field) }));

/** An optional trading pair; empty counts as not given. */
export const optionalSymbol = (field = "symbol") =>
  z.optional(
    z
      .string({ error: symbolMessage(field) })
      .check(z.refine((v) => v === "" || SYMBOL.test(v), { error: symbolMessage(field) })),
  );

/** A numeric ID such as a UID, sent as a string. */
export const numericId = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .check(z.minLength(1, { error: `${field} is required`, abort: true }))
    .check(z.regex(DIGITS, { error: `${field} must be a numeric ID` }));

/** An optional numeric ID; empty counts as not given (rules such as "userId or orderId" then apply). */
export const optionalNumericId = (field: string) =>
  z.optional(
    z
      .string({ error: `${field} must be a numeric ID` })
      .check(z.regex(/^\d*$/, { error: `${field} must be a numeric ID` })),
  );

/** A Unix-millisecond timestamp sent as a string, of an instant a Date can hold. */
export const msTimestamp = (field: string) =>
  z
    .string({ error: `${field} must be a Unix millisecond timestamp` })
    .check(z.refine(isMsTimestamp, { error: `${field} must be a Unix millisecond timestamp` }));

/** `limit` as a string holding a whole number within [1, max]. */
export const limitParam = (max: number) =>
  z.string({ error: `limit must be a whole number from 1 to ${max}` }).check(
    z.refine((v) => DIGITS.test(v) && Number(v) >= 1 && Number(v) <= max, {
      error: `limit must be a whole number from 1 to ${max}`,
    }),
  );

/** The cursor and page size of a paged operation, bounded as its paging says (./catalog/paging). */
export const pageParams = (paging: { cursorParam: "idLessThan"; limit: { max: number } }) => ({
  limit: z.optional(limitParam(paging.limit.max)),
  idLessThan: optionalText(paging.cursorParam),
});

/** A startTime..endTime window where both ends may be left out. */
export const optionalWindow = () => ({
  startTime: z.optional(msTimestamp("startTime")),
  endTime: z.optional(msTimestamp("endTime")),
});

type Times = { startTime?: string; endTime?: string };

/** Adds "end after start" and "span at most N" issues on endTime. */
export function checkSpan(val: Times, ctx: z.core.$RefinementCtx, maxSpanMs: number, spanLabel: string) {
  if (!isMsTimestamp(val.startTime) || !isMsTimestamp(val.endTime)) return;
  const start = Number(val.startTime);
  const end = Number(val.endTime);
  if (end < start) {
    ctx.addIssue({ code: "custom", path: ["endTime"], message: "endTime must not be before startTime" });
  } else if (end - start > maxSpanMs) {
    ctx.addIssue({ code: "custom", path: ["endTime"], message: `endTime must be within ${spanLabel} of startTime` });
  }
}

/** Refuses a startTime older than the retention (relative to now). */
export function checkRetention(
  val: Times,
  ctx: z.core.$RefinementCtx,
  retentionMs: number,
  label: string,
  now = Date.now(),
) {
  for (const field of ["startTime", "endTime"] as const) {
    const v = val[field];
    if (isMsTimestamp(v) && Number(v) < now - retentionMs) {
      ctx.addIssue({
        code: "custom",
        path: [field],
        message: `${field} must be within the last ${label}: older data is not kept`,
      });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Response side: lenient on what may vary, normalising the quirks the spec names.

/** A string field that may be absent or null on the wire; normalised to "". */
export const wireStr = z.pipe(
  z.nullish(z.union([z.string(), z.number()])),
  z.transform((v) => (v === null || v === undefined ? "" : String(v))),
);

/** A list the platform may send as null or leave out: [] then. */
export const listOf = <T extends z.ZodMiniType>(row: T) =>
  z.pipe(
    z.nullish(z.array(row)),
    z.transform((v) => v ?? []),
  );

/** Timestamps labelled as seconds that carry milliseconds: accept both, normalise to a ms string. */
export const wireTime = z.pipe(
  z.union([z.string(), z.number()]),
  z.transform((v, ctx) => {
    const s = String(v).trim();
    if (s === "") return "";
    if (!DIGITS.test(s)) {
      ctx.issues.push({ code: "custom", message: "timestamp must be digits", input: v });
      return z.NEVER;
    }
    // 1e12 ms is 2001-09-09; any real second-resolution value is below it.
    return Number(s) < 1e12 ? String(Number(s) * 1000) : s;
  }),
);

/** A time the platform may leave out (a record's uTime before any update): "" when missing. */
export const optionalWireTime = z.pipe(
  z.optional(wireTime),
  z.transform((v) => v ?? ""),
);

/** Copies legacy or misspelled keys onto their canonical names before parsing (ctime → cTime). */
export function renameKeys<T extends z.ZodMiniType>(aliases: Record<string, string>, schema: T) {
  return preprocess((raw) => {
    if (!raw || typeof raw !== "object" || Array.isArray(raw)) return raw;
    const out: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
    for (const [alias, canonical] of Object.entries(aliases)) {
      if (out[canonical] === undefined && out[alias] !== undefined) out[canonical] = out[alias];
      delete out[alias];
    }
    return out;
  }, schema);
}

/** "Buy"/"buy"/"BUY" → "buy". */
export const wireSide = z.pipe(
  z.string(),
  z.transform((v) => v.toLowerCase()),
);

/** The platform's envelope, as it arrives. */
export const envelopeSchema = z.object({
  code: z.pipe(z.union([z.string(), z.number()]), z.transform(String)),
  msg: z.pipe(
    z.nullish(z.string()),
    z.transform((v) => v ?? ""),
  ),
  requestTime: z.pipe(
    z.union([z.number(), z.string()]),
    z.transform((v) => Number(v)),
  ),
  data: z.unknown(),
});
export type Envelope<T = unknown> = { code: string; msg: string; requestTime: number; data: T };

export const SUCCESS_CODE = "00000";
