import "server-only";
import { THREE_MONTHS_MS } from "@/lib/platform/schemas";
import { depositsList } from "@/lib/platform/catalog";
import { pageDescending, withoutId } from "../data/paging";
import type { DepositRow } from "../data/deposits";
import { cursor, limitOf, requireKey, window, type Handler } from "./types";

export function depositWire(d: DepositRow) {
  return { ...withoutId(d), cTime: String(d.cTime), uTime: String(d.uTime) };
}

/** E1: deposits of the caller's ND sub-accounts, newest first; `data` is an array (platform-facts §3 E1). */
export const listDeposits: Handler<"deposits.list"> = ({ state, key, input, nowMs }) => {
  const k = requireKey(key);
  const w = window(input.startTime, input.endTime, THREE_MONTHS_MS, nowMs);
  // Retention, when configured (the spec states none for E1): older records are gone from every answer.
  const startMs = state.depositRetentionMs === null ? w.startMs : Math.max(w.startMs, nowMs - state.depositRetentionMs);
  const endMs = w.endMs;
  const limit = limitOf(input.limit, depositsList.paging?.limit.default ?? 20);
  const idLessThan = cursor(input.idLessThan);
  let rows: readonly DepositRow[];
  if (input.orderId) {
    const one = state.depositById(input.orderId);
    rows = one && (!input.userId || one.userId === input.userId) ? [one] : [];
  } else {
    rows = state.depositsOf(input.userId ?? "");
  }
  const own = rows[0] && state.isSubOf(k.uid, rows[0].userId) ? rows : [];
  return pageDescending(own, { startMs, endMs, idLessThan, limit }).page.map(depositWire);
};
