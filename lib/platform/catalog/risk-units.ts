import * as z from "zod/mini";
import "@/lib/zod-english";
import { defineEndpoint } from "../define-endpoint";
import { OPERATIONS } from "./operations";
import { numericId, optionalNumericId } from "../schemas";

// In ../values (plain values) so the risk-units page shows the limit without this module's schemas.
export { MAX_UIDS_PER_RISK_UNIT } from "../values";

/** E9 answers `data: "success"` (newer doc) or `{riskUnitId: [...]}` (older doc); both become one shape. */
export const bindResultSchema = z.union([
  z.pipe(
    z.string(),
    z.transform((text) => ({ result: text, riskUnitIds: [] as string[] })),
  ),
  z.pipe(
    z.object({ riskUnitId: z.nullish(z.union([z.array(z.string()), z.string()])) }),
    z.transform((o) => ({
      result: "success",
      riskUnitIds: o.riskUnitId === null || o.riskUnitId === undefined ? [] : [o.riskUnitId].flat(),
    })),
  ),
]);

export const riskUnitsBind = defineEndpoint({
  ...OPERATIONS["riskUnits.bind"],
  request: z
    .object({
      // The risk unit's UID; empty counts as not given (the key rule then asks for it).
      riskUnitId: optionalNumericId("riskUnitId"),
      uid: numericId("uid"),
      operate: z.enum(["bind", "unbind"], { error: "operate must be bind or unbind" }),
    })
    .check(
      z.superRefine((v, ctx) => {
        if (v.riskUnitId && v.riskUnitId === v.uid) {
          ctx.addIssue({ code: "custom", path: ["uid"], message: "uid must not equal riskUnitId" });
        }
      }),
    ),
  response: bindResultSchema,
  paging: null,
  keyRule: (input, keyRole): Record<string, string> =>
    keyRole === "broker-main" && !input.riskUnitId
      ? { riskUnitId: "riskUnitId is required when the main account's key makes the call" }
      : {},
});
