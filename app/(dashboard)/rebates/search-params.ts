// The URL state of /rebates (STYLE rule 10): declared once, read by the page's client component.
import { parseAsString } from "nuqs";

export const rebatesSearchParams = {
  /** Any numeric UID; absent = the first known sub-account. */
  uid: parseAsString,
};
