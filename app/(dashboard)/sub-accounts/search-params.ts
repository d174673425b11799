// The URL state of /sub-accounts (STYLE rule 10): filters on the registry's loaded rows.
import { parseAsString } from "nuqs";

export const subaccountsSearchParams = {
  name: parseAsString,
  status: parseAsString,
  source: parseAsString,
};
