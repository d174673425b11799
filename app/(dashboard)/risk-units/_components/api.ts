// The browser's side of /api/risk-units: replies parsed with these schemas (STYLE rule 3).
import { z } from "zod";

export const bindingSchema = z.object({
  id: z.string(),
  riskUnitId: z.string(),
  uid: z.string(),
  state: z.enum(["bound", "unbound"]),
  boundBy: z.string(),
  boundAt: z.string(),
  unboundBy: z.string().nullable(),
  unboundAt: z.string().nullable(),
});
export type Binding = z.output<typeof bindingSchema>;

export const bindingListSchema = z.object({ items: z.array(bindingSchema) });
export const bindReplySchema = z.object({ binding: bindingSchema, platform: z.unknown() });

/** React Query key of the bindings list; the catalog id heads it (STYLE rule 4). */
export const BINDINGS_KEY = ["riskUnits.bind", "bindings"] as const;
