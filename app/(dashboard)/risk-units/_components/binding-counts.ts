// What the risk-units page counts from Brokerdesk's records: bound UIDs per unit, and the words when none is
// bound. Apart from ./binding-rules (the forms' schema, built on the platform catalog's E9 request) so the
// page's first view does not build the form's rules (page weight); ./binding-rules re-exports both.
import { BOUND_OUTSIDE } from "@/lib/api/risk-units/words";
import type { Binding } from "./api";

/** Bound UIDs per risk unit, by Brokerdesk's records. */
export function boundCounts(bindings: readonly Binding[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const b of bindings) if (b.state === "bound") counts.set(b.riskUnitId, (counts.get(b.riskUnitId) ?? 0) + 1);
  return counts;
}

/**
 * What the counts say when no UID is bound now: never that none was ever bound when some were undone, nor that
 * a binding made outside Brokerdesk (and unbound here) was made here.
 */
export function noneBoundText(bindings: readonly Binding[]): string {
  const n = bindings.filter((b) => b.boundBy !== BOUND_OUTSIDE).length;
  const outside = bindings.length - n;
  const also = outside
    ? `; ${outside === 1 ? "1 binding" : `${outside} bindings`} made outside Brokerdesk ` +
      `${outside === 1 ? "was" : "were"} undone here`
    : "";
  if (n === 0)
    return outside
      ? `No UID is bound through Brokerdesk now${also} (listed below).`
      : "No UID is bound through Brokerdesk yet.";
  return (
    `No UID is bound through Brokerdesk now: the ${n === 1 ? "binding" : `${n} bindings`} made here ` +
    `${n === 1 ? "was" : "were"} undone${also} (listed below).`
  );
}
