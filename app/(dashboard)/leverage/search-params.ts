// The URL state of /leverage (STYLE rule 10): the history's filters, declared once.
import { parseAsString } from "nuqs";

export const leverageSearchParams = {
  symbol: parseAsString,
  outcome: parseAsString,
};
