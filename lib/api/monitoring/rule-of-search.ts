// A /deposits search as the start of a rule of the generic kind: the search's coin, status, amount range and
// sub-account go into the rule form's address, and the form asks for what a search has not (the window and
// the threshold). Without zod, so the deposits page does not load the rule catalog to draw its link.

/** The filters of a /deposits search a rule can keep. */
export type DepositSearch = {
  subUid?: string | null;
  coin?: string | null;
  status?: string | null;
  minAmount?: string | null;
  maxAmount?: string | null;
  /** Filters a rule cannot say (a USDT value range, an address or ID): named on the form as left out. */
  minValue?: string | null;
  maxValue?: string | null;
  q?: string | null;
};

/** Where the rule form starts from a search: the generic kind over deposits, counting, "at least". */
export function ruleOfSearchHref(s: DepositSearch): string {
  const q = new URLSearchParams({
    kind: "aggregate",
    from: "deposits",
    source: "deposits",
    measure: "count",
    op: ">=",
  });
  const keep = { subUid: s.subUid, coin: s.coin, statuses: s.status, minAmount: s.minAmount, maxAmount: s.maxAmount };
  for (const [k, v] of Object.entries(keep)) if (v) q.set(k, v);
  const left = (["minValue", "maxValue", "q"] as const).filter((k) => s[k]);
  if (left.length) q.set("left", left.join(","));
  return `/alerts/rules?${q.toString()}#draft-rule`;
}

/** The words of a search's filters a rule leaves out. */
export const LEFT_OUT_WORDS: Record<string, string> = {
  minValue: "value at least (USDT)",
  maxValue: "value at most (USDT)",
  q: "address, tx or record ID",
};
