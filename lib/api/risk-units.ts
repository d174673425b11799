// Brokerdesk's risk-unit routes: the bindings made through Brokerdesk (the platform cannot list them) and
// binding or unbinding a UID (E9) with Brokerdesk's checks first. Isomorphic.
import * as z from "zod/mini";
import { riskUnitsBind } from "@/lib/platform/catalog/risk-units";
import { defineResource } from "./define-resource";
import { PLATFORM_ERRORS } from "./errors";

export const bindingSchema = z.object({
  id: z.string(),
  riskUnitId: z.string(),
  uid: z.string(),
  state: z.enum(["bound", "unbound"]),
  boundBy: z.string(),
  boundAt: z.string(),
  unboundBy: z.nullable(z.string()),
  unboundAt: z.nullable(z.string()),
});
export type Binding = z.output<typeof bindingSchema>;

/** A UID the platform refused to bind because another risk unit holds it (49001), as Brokerdesk recorded it. */
export const boundElsewhereSchema = z.object({
  uid: z.string(), riskUnitId: z.string(), code: z.string(), msg: z.string(), refusedBy: z.string(), refusedAt: z.string(),
});
export type BoundElsewhere = z.output<typeof boundElsewhereSchema>;

export const bindingListSchema = z.object({ items: z.array(bindingSchema), boundElsewhere: z.array(boundElsewhereSchema) });
/** The binding as recorded, and E9's own answer as the catalog normalises it. */
export const bindReplySchema = z.object({ binding: bindingSchema, platform: z.object({ result: z.string(), riskUnitIds: z.array(z.string()) }) });

/** E9's own request: the form validates exactly what the platform client will send. */
export const bindRequestSchema = riskUnitsBind.request;

export const riskUnitResources = {
  list: defineResource({
    id: "riskUnits.list", method: "GET", path: "/api/risk-units", summary: "Bindings made through Brokerdesk, newest first",
    permission: "riskUnits.read", output: bindingListSchema, errors: [],
  }),
  bind: defineResource({
    id: "riskUnits.bind", method: "POST", path: "/api/risk-units",
    summary: "Bind or unbind a UID to a risk unit (E9, main account's key) after Brokerdesk's own checks, and record it",
    permission: "riskUnits.write", input: bindRequestSchema, output: bindReplySchema,
    audit: { target: (i) => `${i.operate} ${i.uid} → ${i.riskUnitId ?? "own unit"}` }, errors: PLATFORM_ERRORS,
  }),
} as const;
