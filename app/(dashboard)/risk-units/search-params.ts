// The URL state of /risk-units (STYLE rule 10): the bindings list's filters, declared once.
import { parseAsString } from "nuqs";

export const riskUnitsSearchParams = {
  /** Filters on the loaded bindings (column meta). */
  riskUnitId: parseAsString,
  state: parseAsString,
  uid: parseAsString,
};
