// Brokerdesk's risk-unit routes: the bindings made through Brokerdesk (the platform cannot list them, in
// ./reads) and binding or unbinding a UID (E9) with Brokerdesk's checks first. Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { riskUnitsBind } from "@/lib/platform/catalog/risk-units";
import { defineResource } from "../define-resource";
import { PLATFORM_ERRORS } from "../errors";
import { bindingSchema, riskUnitReadResources } from "./reads";

export * from "./reads";

/** The binding as recorded, and E9's own answer as the catalog normalises it. */
export const bindReplySchema = z.object({
  binding: bindingSchema,
  platform: z.object({ result: z.string(), riskUnitIds: z.array(z.string()) }),
});

/** E9's own request: the form validates exactly what the platform client will send. */
export const bindRequestSchema = riskUnitsBind.request;

export const riskUnitResources = {
  ...riskUnitReadResources,
  bind: defineResource({
    id: "riskUnits.bind",
    method: "POST",
    path: "/api/risk-units",
    summary:
      "Bind or unbind a UID to a risk unit (E9, main account's key) after Brokerdesk's own checks, and record it",
    permission: "riskUnits.write",
    input: bindRequestSchema,
    output: bindReplySchema,
    audit: { target: (i) => `${i.operate} ${i.uid} → ${i.riskUnitId ?? "own unit"}` },
    errors: PLATFORM_ERRORS,
  }),
} as const;
