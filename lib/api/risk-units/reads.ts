// Brokerdesk's risk-unit bindings as the list route sends them, and that route's entry. Apart from
// ./index, which adds the bind route (E9's request schema, from the platform catalog), so the list page
// does not build the catalog's schemas (page weight). Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { defineResource } from "../define-resource";

export { BOUND_OUTSIDE } from "./words";

export const bindingSchema = z.object({
  id: z.string(),
  riskUnitId: z.string(),
  uid: z.string(),
  state: z.enum(["bound", "unbound"]),
  boundBy: z.string(),
  /** Null when it was bound outside Brokerdesk (BOUND_OUTSIDE): the time is unknown. */
  boundAt: z.nullable(z.string()),
  unboundBy: z.nullable(z.string()),
  unboundAt: z.nullable(z.string()),
});
export type Binding = z.output<typeof bindingSchema>;

/** A UID the platform refused to bind because another risk unit holds it (49001), as Brokerdesk recorded it. */
export const boundElsewhereSchema = z.object({
  uid: z.string(),
  riskUnitId: z.string(),
  code: z.string(),
  msg: z.string(),
  refusedBy: z.string(),
  refusedAt: z.string(),
});
export type BoundElsewhere = z.output<typeof boundElsewhereSchema>;

export const bindingListSchema = z.object({
  items: z.array(bindingSchema),
  boundElsewhere: z.array(boundElsewhereSchema),
});

/** The list route; ./index adds the bind route to make `riskUnitResources`. */
export const riskUnitReadResources = {
  list: defineResource({
    id: "riskUnits.list",
    method: "GET",
    path: "/api/risk-units",
    summary: "Bindings made through Brokerdesk, newest first",
    permission: "riskUnits.read",
    output: bindingListSchema,
    errors: [],
  }),
} as const;
