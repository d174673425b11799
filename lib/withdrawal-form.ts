// The withdrawal request as staff fill it in, shared by the browser form and the server (STYLE rule 12):
// one schema, so the browser refuses exactly what the server would. Isomorphic: no secrets, no node modules.
import { z } from "zod";
import { WITHDRAWAL_DESTS, withdrawalRequestSchema } from "@/lib/platform/catalog/withdrawals";
import { WITHDRAWAL_COINS, isMsTimestamp, type WithdrawalCoin } from "@/lib/platform/schemas";

/**
 * The chain each coin is sent on when staff do not pick one (shown in the form and stored with the request,
 * so what is sent is what was approved). Chosen from common exchange practice: the coin's native chain, or
 * its most used token standard for tokens (USDT on TRC20 for its low fees; ERC-20 tokens on ERC20). They
 * agree with the simulator's own defaults where it has one.
 */
export const DEFAULT_CHAINS: Readonly<Record<WithdrawalCoin, string>> = {
  BTC: "BTC",
  ETH: "ERC20",
  USDT: "TRC20",
  USDC: "ERC20",
  TRX: "TRC20",
  XRP: "XRP",
  LTC: "LTC",
  SOL: "SOL",
  BNB: "BEP20",
  FTM: "FTM",
  DOGE: "DOGE",
  ADA: "ADA",
  SHIB: "ERC20",
  UNI: "ERC20",
  SEI: "SEI",
  SUI: "SUI",
  POL: "Polygon",
  FIL: "FIL",
  LINK: "ERC20",
  TON: "TON",
  ARB: "ArbitrumOne",
  OP: "Optimism",
  DOT: "DOT",
  AVAX: "C-Chain",
};

/**
 * Coins whose on-chain withdrawals need a tag (memo), because exchanges and custodians receive them on one
 * shared address and tell customers apart by it: a withdrawal without it is lost or needs a manual recovery.
 * From common knowledge of these chains, not from the platform's documentation (which does not list them):
 * XRP's "destination tag" (an unsigned 32-bit number) and TON's "memo"/comment (free text). None of the
 * other coins of the 24 use one on their default chains. Add a coin here to make the form ask for its tag.
 */
export const TAG_COINS: Readonly<Partial<Record<WithdrawalCoin, { label: string; numeric: boolean }>>> = {
  XRP: { label: "Destination tag", numeric: true },
  TON: { label: "Memo", numeric: false },
};

export function tagRuleOf(coin: string): { label: string; numeric: boolean } | undefined {
  return (TAG_COINS as Record<string, { label: string; numeric: boolean } | undefined>)[coin];
}

/** Balances, and so withdrawals, carry at most 8 decimals; more is refused by the platform (40020). */
export const AMOUNT_MAX_DECIMALS = 8;
const XRP_TAG_MAX = 4_294_967_295;

const catalogShape = withdrawalRequestSchema.shape;
const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optionalTrimmed = (field: string, max: number, pattern?: { re: RegExp; message: string }) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ error: `${field} must be text` })
      .trim()
      .max(max, { error: `${field} must be at most ${max} characters` })
      .refine((v) => !pattern || pattern.re.test(v), { error: pattern?.message ?? "" })
      .optional(),
  );

/** The request form: the catalog's E5 fields (without clientOid, which the server mints) plus a reason. */
export const withdrawalFormSchema = z
  .object({
    subUid: catalogShape.subUid,
    coin: catalogShape.coin,
    dest: catalogShape.dest,
    chain: optionalTrimmed("chain", 32, { re: /^[A-Za-z0-9_-]+$/, message: "chain may hold letters, digits, - and _ only" }),
    address: catalogShape.address.pipe(
      z
        .string()
        .max(128, { error: "address must be at most 128 characters" })
        .regex(/^\S+$/, { error: "address must not contain spaces" }),
    ),
    tag: optionalTrimmed("tag", 64),
    amount: catalogShape.amount.refine((v) => (v.split(".")[1]?.length ?? 0) <= AMOUNT_MAX_DECIMALS, {
      error: `amount may have at most ${AMOUNT_MAX_DECIMALS} decimals`,
    }),
    reason: z
      .string({ error: "reason is required" })
      .trim()
      .min(3, { error: "reason must be at least 3 characters" })
      .max(500, { error: "reason must be at most 500 characters" }),
  })
  .superRefine((v, ctx) => {
    if (v.dest === "internal_transfer") {
      // The catalog's rule, repeated because refinements are not carried by `.shape`.
      if (v.address && !/^\d+$/.test(v.address)) {
        ctx.addIssue({ code: "custom", path: ["address"], message: "address must be a numeric UID for an internal transfer" });
      } else if (v.address === v.subUid) {
        ctx.addIssue({ code: "custom", path: ["address"], message: "address must not be the sending sub-account itself" });
      }
      return;
    }
    const rule = tagRuleOf(v.coin);
    if (!rule) return;
    if (!v.tag) {
      ctx.addIssue({ code: "custom", path: ["tag"], message: `${v.coin} withdrawals on chain need a ${rule.label.toLowerCase()}` });
    } else if (rule.numeric && (!/^\d{1,10}$/.test(v.tag) || Number(v.tag) > XRP_TAG_MAX)) {
      ctx.addIssue({ code: "custom", path: ["tag"], message: `${rule.label} must be a whole number from 0 to ${XRP_TAG_MAX}` });
    }
  })
  .transform((v) => ({
    ...v,
    // Stored explicitly: on chain, an empty chain means the coin's default; an internal transfer has no chain or tag.
    chain: v.dest === "on_chain" ? (v.chain ?? DEFAULT_CHAINS[v.coin]) : undefined,
    tag: v.dest === "on_chain" ? v.tag : undefined,
  }));
export type WithdrawalFormInput = z.input<typeof withdrawalFormSchema>;
export type WithdrawalFormValues = z.output<typeof withdrawalFormSchema>;

/** The approver retypes both, exactly as stored (no trimming: "10" is not "10.0"). */
export const approveWithdrawalSchema = z.object({
  confirmAmount: z.string({ error: "Type the amount to confirm" }).min(1, { error: "Type the amount to confirm" }),
  confirmAddress: z.string({ error: "Type the address to confirm" }).min(1, { error: "Type the address to confirm" }),
});
export type ApproveWithdrawalInput = z.infer<typeof approveWithdrawalSchema>;

export const rejectWithdrawalSchema = z.object({
  reason: z
    .string({ error: "reason is required" })
    .trim()
    .min(3, { error: "reason must be at least 3 characters" })
    .max(500, { error: "reason must be at most 500 characters" }),
});

export const WITHDRAWAL_STATES = ["requested", "approved", "submitted", "confirmed", "failed", "unknown", "rejected"] as const;
export type WithdrawalState = (typeof WITHDRAWAL_STATES)[number];

/**
 * A submit "submitted" this long without an outcome belongs to a process that died mid-call; a reconcile may
 * take it over. Far above the platform client's timeout, so a live call is never overtaken.
 */
export const STALE_SUBMIT_MS = 5 * 60_000;
/**
 * An "approved" row is claimed for sending by its approver within milliseconds; left longer, its send was
 * never recorded (the audit intent could not be written), so nothing left and a reconcile may send it.
 */
export const STALE_APPROVED_MS = 30_000;

/** Whether reconcile may (re)send: outcome unknown, or a send that was left behind (see the STALE_* times). */
export function isReconcilable(w: { state: WithdrawalState; submittedAt: string | null; approvedAt: string | null }, now: number): boolean {
  const age = (at: string | null) => (at === null ? 0 : now - Date.parse(at));
  if (w.state === "unknown") return true;
  if (w.state === "submitted") return age(w.submittedAt) > STALE_SUBMIT_MS;
  if (w.state === "approved") return age(w.approvedAt) > STALE_APPROVED_MS;
  return false;
}

const msTime = (field: string) =>
  z
    .string()
    // Not a bare 16-digit check: past year 275760 the Date below would be invalid (and the query a 500).
    .refine(isMsTimestamp, { error: `${field} must be a Unix millisecond timestamp` })
    .transform((v) => new Date(Number(v)))
    .optional();
const blankless = <S extends z.ZodType>(s: S) => z.preprocess(blankToUndefined, s.optional());

/** Ledger filters, shared by the /withdrawals page (URL) and its API (query string). */
export const withdrawalFiltersSchema = z.object({
  subUid: blankless(z.string().regex(/^\d{1,32}$/, { error: "subUid must be a numeric ID" })),
  coin: blankless(z.enum(WITHDRAWAL_COINS, { error: "coin must be one of the withdrawal coins" })),
  state: blankless(z.enum(WITHDRAWAL_STATES, { error: `state must be one of ${WITHDRAWAL_STATES.join(", ")}` })),
  requestedBy: blankless(z.string().trim().max(254)),
  from: msTime("from"),
  to: msTime("to"),
  limit: z
    .string()
    .regex(/^\d+$/, { error: "limit must be a whole number from 1 to 500" })
    .transform(Number)
    .pipe(z.number().int().min(1, { error: "limit must be a whole number from 1 to 500" }).max(500, { error: "limit must be a whole number from 1 to 500" }))
    .optional(),
  cursor: blankless(z.string().max(200)),
});
export type WithdrawalFiltersInput = z.input<typeof withdrawalFiltersSchema>;

/** A ledger row as the API sends it: amounts as strings, times as ISO 8601 UTC. */
export const withdrawalViewSchema = z.object({
  id: z.string(),
  clientOid: z.string(),
  subUid: z.string(),
  coin: z.string(),
  dest: z.enum(WITHDRAWAL_DESTS),
  chain: z.string().nullable(),
  address: z.string(),
  tag: z.string().nullable(),
  amount: z.string(),
  reason: z.string(),
  state: z.enum(WITHDRAWAL_STATES),
  requestedBy: z.string(),
  requestedAt: z.string(),
  approvedBy: z.string().nullable(),
  approvedAt: z.string().nullable(),
  rejectedBy: z.string().nullable(),
  rejectedAt: z.string().nullable(),
  rejectReason: z.string().nullable(),
  submittedAt: z.string().nullable(),
  settledAt: z.string().nullable(),
  platformOrderId: z.string().nullable(),
  errorCode: z.string().nullable(),
  errorMsg: z.string().nullable(),
  version: z.number(),
});
export type WithdrawalView = z.infer<typeof withdrawalViewSchema>;

export const withdrawalPageSchema = z.object({ items: z.array(withdrawalViewSchema), nextCursor: z.string().nullable() });
export type WithdrawalPage = z.infer<typeof withdrawalPageSchema>;
