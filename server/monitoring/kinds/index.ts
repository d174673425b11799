import "server-only";
// The compilers of the rule kinds (lib/api/monitoring/rule-kinds.ts declares their parameters): a kind is one
// file here and one line below.
import type { RuleKind, RuleParams, RuleSpec } from "@/lib/api/monitoring/rule-kinds";
import { compileAggregate, compileVelocity } from "./aggregate";
import { compileDormantActive } from "./dormant-active";
import { compileDepositWithoutOriginator } from "./deposit-without-originator";
import { compileFirstDeposit } from "./first-deposit";
import { compileLargeDeposit } from "./large-deposit";
import { compileNewDestination } from "./new-destination";
import { compilePassThrough } from "./pass-through";
import { compileSanctionedAddress } from "./sanctioned-address";
import { compileSanctionedName } from "./sanctioned-name";
import { compileSharedAddress } from "./shared-address";
import type { Compiled } from "./sql";
import { compileStructuring } from "./structuring";

export type { Compiled } from "./sql";

const COMPILERS: { [K in RuleKind]: (params: RuleParams<K>) => Compiled } = {
  large_deposit: compileLargeDeposit,
  first_deposit: compileFirstDeposit,
  structuring: compileStructuring,
  velocity: compileVelocity,
  pass_through: compilePassThrough,
  dormant_active: compileDormantActive,
  shared_address: compileSharedAddress,
  new_destination: compileNewDestination,
  deposit_without_originator: compileDepositWithoutOriginator,
  aggregate: compileAggregate,
  sanctioned_address: compileSanctionedAddress,
  sanctioned_name: compileSanctionedName,
};

/**
 * Which records' arrival can fire a kind: a sync batch evaluates the deposit kinds, a withdrawal request the others.
 */
export const KIND_SOURCES: Record<
  RuleKind,
  "deposits" | "withdrawals" | ((p: RuleParams) => "deposits" | "withdrawals")
> = {
  large_deposit: "deposits",
  first_deposit: "deposits",
  structuring: "deposits",
  velocity: (p) => ("source" in p && p.source === "withdrawals" ? "withdrawals" : "deposits"),
  pass_through: "withdrawals",
  dormant_active: "deposits",
  shared_address: (p) => ("side" in p && p.side === "withdrawal_destination" ? "withdrawals" : "deposits"),
  new_destination: "withdrawals",
  deposit_without_originator: "deposits",
  aggregate: (p) => ("source" in p && p.source === "withdrawals" ? "withdrawals" : "deposits"),
  sanctioned_address: (p) => ("side" in p && p.side === "withdrawal_destination" ? "withdrawals" : "deposits"),
  sanctioned_name: "withdrawals",
};

export function sourceOf(spec: RuleSpec): "deposits" | "withdrawals" {
  const s = KIND_SOURCES[spec.kind];
  return typeof s === "function" ? s(spec.params) : s;
}

/** The kind's one query: $1 the sub-account scope (or null), $2 the earliest trigger time (or null), then its own. */
export function compileRule(spec: RuleSpec): Compiled {
  return (COMPILERS[spec.kind] as (p: RuleParams) => Compiled)(spec.params);
}
