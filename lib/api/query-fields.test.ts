// Every list with a range or an amount range refuses one the other way round on its field, naming it, rather
// than answering with nothing (a review found the withdrawals ledger and the audit log answered "no rows").
import { describe, expect, it } from "vitest";
import type * as z from "zod/mini";
import { auditFiltersSchema } from "./audit";
import { ledgerDepositFiltersSchema } from "./ledger";
import { ledgerFillFiltersSchema, ledgerPlanOrderFiltersSchema } from "./ledger/trades";
import { withdrawalFiltersSchema } from "./withdrawals/ledger";

const problems = (schema: z.ZodMiniType, input: Record<string, string>) => {
  const r = schema.safeParse(input);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join("."), i.message]));
};

const lists = {
  audit: auditFiltersSchema,
  deposits: ledgerDepositFiltersSchema,
  fills: ledgerFillFiltersSchema,
  planOrders: ledgerPlanOrderFiltersSchema,
  withdrawals: withdrawalFiltersSchema,
};
const HOUR = 3_600_000;
const t = 1_795_800_000_000;

describe("[filters][range]", () => {
  it.each(Object.entries(lists))(
    "%s: to before from is refused on to; the same instant and the right order are taken",
    (_, schema) => {
      expect(problems(schema, { from: String(t), to: String(t - HOUR) })).toEqual({ to: "to must not be before from" });
      expect(problems(schema, { from: String(t), to: String(t) })).toEqual({});
      expect(problems(schema, { from: String(t - HOUR), to: String(t) })).toEqual({});
      expect(problems(schema, { from: String(t) })).toEqual({});
    },
  );
});

describe("[filters][amounts]", () => {
  const amountLists = [
    ["deposits", ledgerDepositFiltersSchema, "minAmount", "maxAmount"],
    ["withdrawals", withdrawalFiltersSchema, "amountMin", "amountMax"],
  ] as const;

  it.each(amountLists)(
    "%s: a least above the most is refused on the most, compared as decimals, not as text or floats",
    (_, schema, min, max) => {
      const refused = { [max]: `${max} must not be below ${min}` };
      expect(problems(schema, { [min]: "5000", [max]: "100" })).toEqual(refused);
      // As text "9.99" > "10"; as decimals it is below.
      expect(problems(schema, { [min]: "9.99", [max]: "10" })).toEqual({});
      expect(problems(schema, { [min]: "10", [max]: "9.99" })).toEqual(refused);
      expect(problems(schema, { [min]: "0.5", [max]: "0.50" })).toEqual({});
      expect(problems(schema, { [min]: "0.500000000000000000000000000001", [max]: "0.5" })).toEqual(refused);
      // Past a float's 17 digits: equal as floats, not as amounts.
      expect(problems(schema, { [min]: "12345678901234567891", [max]: "12345678901234567890" })).toEqual(refused);
      expect(problems(schema, { [min]: "1" })).toEqual({});
      expect(problems(schema, { [max]: "1" })).toEqual({});
    },
  );
});
