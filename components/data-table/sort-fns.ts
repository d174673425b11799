// The sort functions of the lists that sort (features-sorting.ts, features-filtering.ts).
import { constructSortFn, sortFn_text } from "@tanstack/react-table";
import { compareDecimal } from "@/lib/compare-decimal";

// Amounts, IDs and ms timestamps are all digit strings: compare them as decimals, never as floats.
const decimal = constructSortFn({ sort: (a: unknown, b: unknown) => compareDecimal(String(a ?? ""), String(b ?? "")) });

export const dataTableSortFns = { decimal, text: sortFn_text };
