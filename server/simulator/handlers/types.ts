import "server-only";
import type { z } from "zod";
import type { Catalog, OperationId } from "@/lib/platform/catalog";
import { SimError } from "../envelope";
import type { RegisteredKey } from "../keys";
import type { SimState } from "../state";

export type HandlerContext<Id extends OperationId> = {
  state: SimState;
  /** The key the request was made with; null on public operations. */
  key: RegisteredKey | null;
  input: z.output<Catalog[Id]["request"]>;
  nowMs: number;
};

/** Answers one operation with its `data`, shaped as the catalog's response schema reads it. */
export type Handler<Id extends OperationId> = (ctx: HandlerContext<Id>) => z.input<Catalog[Id]["response"]>;

export function requireKey(key: RegisteredKey | null): RegisteredKey {
  if (!key) throw new Error("private operation reached without a key");
  return key;
}

/** A cursor (idLessThan) as a number; anything but digits is a bad parameter. */
export function cursor(value: string | undefined): number | undefined {
  if (value === undefined || value === "") return undefined;
  if (!/^\d{1,19}$/.test(value)) throw SimError.invalid("idLessThan");
  return Number(value);
}

export function limitOf(value: string | undefined, fallback: number): number {
  return value === undefined ? fallback : Number(value);
}

/**
 * The time window of a request: both ends given are used as they are; one end alone reaches `spanMs`
 * from it; none is the `spanMs` ending now.
 */
export function window(
  startTime: string | undefined,
  endTime: string | undefined,
  spanMs: number,
  nowMs: number,
): { startMs: number; endMs: number } {
  if (startTime !== undefined && endTime !== undefined) return { startMs: Number(startTime), endMs: Number(endTime) };
  if (startTime !== undefined) return { startMs: Number(startTime), endMs: Number(startTime) + spanMs };
  if (endTime !== undefined) return { startMs: Number(endTime) - spanMs, endMs: Number(endTime) };
  return { startMs: nowMs - spanMs, endMs: nowMs };
}
