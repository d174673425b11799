// The risk-units page's query key (the list resource's id, STYLE rule 4); schemas and entries are in lib/api.
import { pageCalls } from "@/lib/api/page-routes";

export type { Binding } from "@/lib/api/risk-unit-reads";

/** React Query key of the bindings list. */
export const BINDINGS_KEY = [pageCalls.riskUnitsList.id] as const;
