import "server-only";
import Big from "big.js";
import { SimError } from "../envelope";
import { ON_CHAIN_SETTLE_MS, type WithdrawalRecord } from "../state";
import { requireKey, type Handler } from "./types";

const MAIN_CHAIN: Record<string, string> = {
  BTC: "BTC",
  ETH: "ERC20",
  USDT: "TRC20",
  USDC: "ERC20",
  TRX: "TRC20",
  XRP: "XRP",
  LTC: "LTC",
  SOL: "SOL",
  BNB: "BEP20",
  DOGE: "DOGE",
  ADA: "ADA",
  TON: "TON",
  DOT: "DOT",
  AVAX: "C-Chain",
  ARB: "ArbitrumOne",
  OP: "Optimism",
  SUI: "SUI",
  SEI: "SEI",
};
/** Amounts carry at most 8 decimals, as balances do. */
const MAX_DECIMALS = 8;

/**
 * E5. Debits the sub-account's available balance (43012 "Insufficient balance" when short); an internal
 * transfer to a sub-account of the same broker credits it and shows as its deposit; an on-chain
 * withdrawal is recorded pending and completes ON_CHAIN_SETTLE_MS later.
 * clientOid (README "clientOid"): a repeat with the same subUid, coin, dest, address, amount, chain and
 * tag returns the original orderId and clientOid and moves nothing; a repeat with anything different is
 * 40020 "Parameter clientOid error". Without a clientOid the orderId doubles as one (as in the doc's sample).
 */
export const withdraw: Handler<"withdrawals.submit"> = ({ state, key, input, nowMs }) => {
  const k = requireKey(key);
  const sub = state.subaccount(input.subUid);
  if (!sub || sub.mainUid !== k.uid) throw SimError.platform("40034", "subUid");
  const chain = input.dest === "on_chain" ? (input.chain ?? MAIN_CHAIN[input.coin] ?? input.coin) : (input.chain ?? "");
  const wanted = {
    subUid: input.subUid,
    coin: input.coin,
    dest: input.dest,
    address: input.address.trim(),
    amount: input.amount,
    chain,
    tag: input.tag ?? "",
  };

  if (input.clientOid) {
    const prior = state.withdrawalByClientOid(k.uid, input.clientOid);
    if (prior) {
      const same =
        prior.subUid === wanted.subUid &&
        prior.coin === wanted.coin &&
        prior.dest === wanted.dest &&
        prior.address === wanted.address &&
        new Big(prior.amount).eq(wanted.amount) &&
        prior.chain === wanted.chain &&
        prior.tag === wanted.tag;
      if (!same) throw SimError.invalid("clientOid");
      return { orderId: prior.orderId, clientOid: prior.clientOid };
    }
  }

  if (sub.status !== "normal") throw SimError.invalid("subUid");
  const amount = new Big(wanted.amount);
  if ((wanted.amount.split(".")[1]?.length ?? 0) > MAX_DECIMALS) throw SimError.invalid("amount");
  if (wanted.dest === "internal_transfer" && wanted.address === wanted.subUid) throw SimError.invalid("address");

  const entry = state.balancesOf(sub.uid).get(wanted.coin);
  if (!entry || entry.available.lt(amount)) throw SimError.platform("43012");
  entry.available = entry.available.minus(amount);
  entry.uTime = nowMs;

  const id = state.nextId();
  const orderId = String(id);
  const record: WithdrawalRecord = {
    orderId,
    clientOid: input.clientOid ?? orderId,
    mainUid: k.uid,
    ...wanted,
    amount: amount.toString(),
    cTime: nowMs,
    completesAt: wanted.dest === "on_chain" ? nowMs + ON_CHAIN_SETTLE_MS : nowMs,
  };
  state.recordWithdrawal(record);

  if (wanted.dest === "internal_transfer" && state.isSubOf(k.uid, wanted.address)) {
    const dest = state.balancesOf(wanted.address);
    const d = dest.get(wanted.coin);
    if (d) {
      d.available = d.available.plus(amount);
      d.uTime = nowMs;
    } else {
      dest.set(wanted.coin, { available: amount, frozen: new Big(0), locked: new Big(0), uTime: nowMs });
    }
    const depositId = state.nextId();
    state.addDeposit({
      id: depositId,
      orderId: String(depositId),
      txId: orderId,
      coin: wanted.coin,
      type: "deposit",
      dest: "internal_transfer",
      amount: amount.toString(),
      status: "success",
      fromAddress: sub.uid,
      toAddress: wanted.address,
      fee: "0",
      chain: "",
      confirm: "0",
      tag: "",
      userId: wanted.address,
      cTime: nowMs,
      uTime: nowMs,
    });
  }
  return { orderId, clientOid: record.clientOid };
};
