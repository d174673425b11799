import { z } from "zod";
import { defineEndpoint } from "../define-endpoint";
import { OI_PRODUCT_TYPES, PRODUCT_TYPES, optionalText, required, wireStr } from "../schemas";

export const HOLD_SIDES = ["long", "short"] as const;

export const leverageSettingSchema = z
  .object({
    symbol: z.string(),
    marginCoin: z.string(),
    longLeverage: wireStr,
    // The field table spells it shortLeveage, the sample shortLeverage: read either.
    shortLeverage: z.string().optional(),
    shortLeveage: z.string().optional(),
    crossMarginLeverage: wireStr,
    marginMode: wireStr,
  })
  .transform(({ shortLeveage, shortLeverage, ...rest }) => ({ ...rest, shortLeverage: shortLeverage ?? shortLeveage ?? "" }));
export type LeverageSetting = z.output<typeof leverageSettingSchema>;

export const leverageSet = defineEndpoint({
  id: "leverage.set",
  code: "E10",
  title: "Change futures leverage",
  method: "POST",
  path: "/api/v2/mix/account/set-leverage",
  auth: "private",
  brokerOnly: false,
  rateLimit: { count: 5, scope: "uid" },
  request: z.object({
    symbol: required("symbol"),
    productType: z.enum(PRODUCT_TYPES, { error: `productType must be one of ${PRODUCT_TYPES.join(", ")}` }),
    marginCoin: required("marginCoin").regex(/^[A-Z0-9]+$/, { error: "marginCoin must be in upper case, e.g. USDT" }),
    leverage: required("leverage").regex(/^[1-9]\d*$/, { error: "leverage must be a whole number of at least 1" }),
    holdSide: z.enum(HOLD_SIDES, { error: "holdSide must be long or short" }).optional(),
  }),
  response: leverageSettingSchema,
  paging: null,
  permission: "leverage.write",
});

export const oiLimitSchema = z.object({ symbol: z.string(), notionalValue: wireStr, totalNotionalValue: wireStr });
export type OiLimit = z.output<typeof oiLimitSchema>;

export const oiLimitsList = defineEndpoint({
  id: "oiLimits.list",
  code: "E11",
  title: "Futures open-interest limits",
  method: "GET",
  path: "/api/v2/mix/market/oi-limit",
  auth: "public",
  brokerOnly: false,
  rateLimit: { count: 10, scope: "ip" },
  request: z.object({
    symbol: optionalText("symbol"),
    // The platform's own curl example sends lowercase; both cases are accepted.
    productType: z
      .string({ error: `productType must be one of ${OI_PRODUCT_TYPES.join(", ")}` })
      // ASCII only: toUpperCase maps "ſ" to "S" and "ı" to "I", which would let "uſdt-futures" through as is.
      .refine((v) => /^[A-Za-z-]+$/.test(v) && (OI_PRODUCT_TYPES as readonly string[]).includes(v.toUpperCase()), {
        error: `productType must be one of ${OI_PRODUCT_TYPES.join(", ")}`,
      }),
  }),
  response: z.array(oiLimitSchema).nullish().transform((v) => v ?? []),
  paging: null,
  permission: "oiLimits.read",
});
