import "server-only";
// POST /__sim/patterns: a monitoring pattern (./data/patterns.ts) arriving now, for the e2e suite and demos: its
// deposits land on the sub-accounts named, or on new ones made for it, one a second up to now, pending as
// live deposits are until they settle.
import { z } from "zod";
import { hex } from "./data/deposits";
import { LIVE_PATTERNS, patternDeposit, type LivePattern } from "./data/patterns";
import type { SimState } from "./state";

export const injectPatternSchema = z.object({
  pattern: z.enum(Object.keys(LIVE_PATTERNS) as [LivePattern, ...LivePattern[]]),
  subUids: z.array(z.string().regex(/^\d{1,32}$/)).optional(),
});

export type Injected = { pattern: LivePattern; subUids: string[]; orderIds: string[] };
export type InjectRefusal = { status: 400 | 404; error: string };

let injections = 0;

/** The pattern's deposits, on the platform's clock `now`; or why not, naming the field. */
export function injectPattern(
  state: SimState,
  input: z.infer<typeof injectPatternSchema>,
  now: number,
): Injected | InjectRefusal {
  const plan = LIVE_PATTERNS[input.pattern];
  if (input.subUids && input.subUids.length !== plan.accounts)
    return { status: 400, error: `subUids: ${input.pattern} takes ${plan.accounts} sub-account(s)` };
  const subs = input.subUids
    ? input.subUids.map((uid) => state.subaccount(uid))
    : Array.from({ length: plan.accounts }, (_, i) =>
        state.addSubaccount(
          state.mainUid,
          `${input.pattern.replace("_", "")}${Date.now().toString(36)}n${i}@brokerdesk-sim.example`,
          "",
        ),
      );
  const missing = (input.subUids ?? []).filter((_, i) => {
    const s = subs[i];
    return !s || s.mainUid !== state.mainUid || s.status !== "normal";
  });
  if (missing.length) return { status: 404, error: `subUids: not a normal sub-account of the broker: ${missing}` };
  const n = ++injections;
  const shared = `0x${hex(state.seed ^ 0x5a5f, n, 40)}`;
  const orderIds: string[] = [];
  for (const [k, amount] of plan.amounts.entries()) {
    const sub = subs[k % plan.accounts]!;
    const ms = now - (plan.amounts.length - 1 - k) * 1000;
    const row = patternDeposit(state.seed, {
      id: Math.max(state.nextId(), ms * 1000),
      ms,
      sub,
      amount,
      key: 1_000_000 * n + k,
      fromAddress: input.pattern === "shared_source" ? shared : `0x${hex(state.seed ^ 0x5a5c, 1_000_000 * n + k, 40)}`,
    });
    state.arriveDeposit({ ...row, status: "pending", confirm: "0", uTime: ms });
    orderIds.push(row.orderId);
  }
  return { pattern: input.pattern, subUids: subs.map((s) => s!.uid), orderIds };
}
