// The risk-units page's query key (the list resource's id, STYLE rule 4); schemas and entries are in lib/api.

export type { Binding } from "@/lib/api/risk-units/reads";
import { riskUnitsRoutes } from "@/lib/api/risk-units/routes";

/** React Query key of the bindings list. */
export const BINDINGS_KEY = [riskUnitsRoutes.list.id] as const;
