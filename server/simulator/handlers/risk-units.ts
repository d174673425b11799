import "server-only";
import { MAX_UIDS_PER_RISK_UNIT } from "@/lib/platform/catalog";
import { SimError } from "../envelope";
import { requireKey, type Handler } from "./types";

/**
 * E9, every rule of the spec (codes in README "Error codes"):
 * - the main account names its unit; the risk-unit account may leave riskUnitId out (its own unit) and
 *   may not name another (40020 riskUnitId); a unit of another main account is 40020 riskUnitId;
 * - uid must be a sub-account of the unit's main account and not the unit itself (40020 uid);
 * - bind: bound to another unit 49001; unit full (50) 49002; already in this unit: success, unchanged;
 * - unbind: not in the unit 49003; a balance while the unit has outstanding loans 49004.
 */
export const bindUid: Handler<"riskUnits.bind"> = ({ state, key, input }) => {
  const k = requireKey(key);
  let unitId = input.riskUnitId;
  if (k.role === "risk-unit") {
    if (unitId && unitId !== k.uid) throw SimError.invalid("riskUnitId");
    unitId = k.uid;
  }
  if (!unitId) throw SimError.missing("riskUnitId");
  const unit = state.riskUnit(unitId);
  const callerMain = k.role === "risk-unit" ? state.subaccount(k.uid)?.mainUid : k.uid;
  if (!unit || unit.mainUid !== callerMain) throw SimError.invalid("riskUnitId");
  if (input.uid === unit.id || !state.isSubOf(unit.mainUid, input.uid)) throw SimError.invalid("uid");

  if (input.operate === "bind") {
    const current = state.riskUnitOfMember(input.uid);
    if (current === unit) return "success";
    if (current) throw SimError.own("49001");
    if (unit.members.size >= MAX_UIDS_PER_RISK_UNIT) throw SimError.own("49002");
    unit.members.add(input.uid);
    return "success";
  }
  if (!unit.members.has(input.uid)) throw SimError.own("49003");
  if (state.hasBalance(input.uid) && unit.outstandingLoan.gt(0)) throw SimError.own("49004");
  unit.members.delete(input.uid);
  return "success";
};
