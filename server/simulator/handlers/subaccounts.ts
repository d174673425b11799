import "server-only";
import { SimError } from "../envelope";
import { DEFAULT_REBATE } from "../data/accounts";
import { requireKey, type Handler } from "./types";

/**
 * E2. An unknown subUid (or one of another broker) is 40034 "Parameter subUid does not exist".
 * `coin` wins over assetType and yields that coin's entry if the account ever held it; hold_only lists
 * coins with a non-zero total, all lists every coin the account has an entry for (README "Data").
 */
export const subaccountAssets: Handler<"subaccounts.assets"> = ({ state, key, input }) => {
  const k = requireKey(key);
  if (!state.isSubOf(k.uid, input.subUid)) throw SimError.platform("40034", "subUid");
  const entries = [...state.balancesOf(input.subUid)].filter(([coin, e]) => {
    if (input.coin) return coin === input.coin.toUpperCase();
    if (input.assetType === "all") return true;
    return e.available.plus(e.frozen).plus(e.locked).gt(0);
  });
  return {
    assetsList: entries.map(([coin, e]) => ({
      coin,
      available: e.available.toFixed(8),
      frozen: e.frozen.toFixed(8),
      locked: e.locked.toFixed(8),
      uTime: String(e.uTime),
    })),
  };
};

/**
 * E6. subaccountName is unique on the platform and label unique per broker: a repeat is
 * 40020 "Parameter subaccountName error" / "Parameter label error" (README "Error codes").
 */
export const createSubaccount: Handler<"subaccounts.create"> = ({ state, key, input }) => {
  const k = requireKey(key);
  const name = input.subaccountName.trim();
  const all = [...state.subaccountsOf(k.uid), ...state.subaccountsOf(state.nonBrokerUid)];
  if (all.some((s) => s.subaccountName.toLowerCase() === name.toLowerCase())) throw SimError.invalid("subaccountName");
  const label = input.label ?? "";
  if (label !== "" && state.subaccountsOf(k.uid).some((s) => s.label === label)) throw SimError.invalid("label");
  const sub = state.addSubaccount(k.uid, name, label);
  return {
    subUid: sub.uid,
    subaccountName: sub.subaccountName,
    status: sub.status,
    permList: [...sub.permList],
    label: sub.label,
    cTime: String(sub.cTime),
  };
};

/** E7: rebate info of one of the caller's sub-accounts; any other uid is 40034 "Parameter uid does not exist". */
export const rebateInfo: Handler<"rebates.get"> = ({ state, key, input }) => {
  const k = requireKey(key);
  if (!state.isSubOf(k.uid, input.uid)) throw SimError.platform("40034", "uid");
  return { ...(state.rebateOf(input.uid) ?? DEFAULT_REBATE) };
};
