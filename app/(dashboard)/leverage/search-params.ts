// The URL state of /leverage (STYLE rule 10): the account the form sets leverage for (a configured key's
// name; absent = the main account) and the history's filters, declared once.
import { parseAsString } from "nuqs";

export const leverageSearchParams = {
  account: parseAsString,
  symbol: parseAsString,
  outcome: parseAsString,
};
