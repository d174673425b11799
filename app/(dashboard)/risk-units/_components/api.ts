// The risk-units page's query key (the list resource's id, STYLE rule 4); schemas and entries are in lib/api.
import { riskUnitResources } from "@/lib/api/risk-units";

export type { Binding } from "@/lib/api/risk-units";

/** React Query key of the bindings list. */
export const BINDINGS_KEY = [riskUnitResources.list.id] as const;
