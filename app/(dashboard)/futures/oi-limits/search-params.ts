// The URL state of /futures/oi-limits (STYLE rule 10): declared once, read by the page's client component.
import { parseAsString, parseAsStringLiteral } from "nuqs";
import { OI_PRODUCT_TYPES } from "@/lib/platform/values";

export const oiLimitsSearchParams = {
  productType: parseAsStringLiteral(OI_PRODUCT_TYPES).withDefault("USDT-FUTURES"),
  /** E11's own `symbol` parameter: the platform answers for that symbol only. */
  symbol: parseAsString,
  /** Text filter over the loaded rows (column meta), so narrowing the list costs no request. */
  find: parseAsString,
};
