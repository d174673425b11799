"use client";
// Which columns a table shows: the person's own choices (kept in this browser per table, so a column they
// hid or brought back stays so on their next visit), and, for the columns they have not chosen, as many as
// fit the table's width, dropping the lowest priority first (meta.priority: 2, then 3 first; a column without
// a priority, or with 1, is never dropped), rightmost first. A table wider than its page scrolls, and the columns staff
// need most
// (a deposit's status and transaction ID, a withdrawal's address, requester and reason) sat off screen.
import { useSyncExternalStore } from "react";
import type { ColumnVisibilityState } from "@tanstack/react-table";
import { storedChoices } from "@/lib/client/stored-choice";
import type { DataTableColumnMeta } from "./column-meta";

/** Pixels a column without a declared width is counted as. */
const DEFAULT_WIDTH = 120;
/** The extra width of a time column in local time (components/data-table/data-table.tsx). */
export const LOCAL_TIME_EXTRA_PX = 56;

type ColumnDefLike = { id?: string; accessorKey?: unknown; enableHiding?: boolean; meta?: DataTableColumnMeta };

export function columnIdOf(def: ColumnDefLike): string | null {
  return def.id ?? (typeof def.accessorKey === "string" ? def.accessorKey : null);
}

export function columnWidth(meta: DataTableColumnMeta | undefined, local: boolean): number {
  return (meta?.width ?? DEFAULT_WIDTH) + (meta?.time && local ? LOCAL_TIME_EXTRA_PX : 0);
}

/**
 * The columns to hide so the rest fit `width`: only columns the person has not chosen, that may be hidden
 * and are not key columns; lowest priority first, rightmost first among equals.
 */
export function columnsToDrop(
  defs: readonly ColumnDefLike[],
  width: number | null,
  chosen: ColumnVisibilityState,
  base: ColumnVisibilityState,
  local: boolean,
): ColumnVisibilityState {
  if (width === null || width <= 0) return {};
  const cols = defs.flatMap((def, index) => {
    const id = columnIdOf(def);
    return id ? [{ id, index, def }] : [];
  });
  const shown = cols.filter((c) => (chosen[c.id] ?? base[c.id]) !== false);
  let total = shown.reduce((n, c) => n + columnWidth(c.def.meta, local), 0);
  const droppable = shown
    .filter((c) => chosen[c.id] === undefined && c.def.enableHiding !== false && (c.def.meta?.priority ?? 1) > 1)
    .sort((a, b) => (b.def.meta?.priority ?? 1) - (a.def.meta?.priority ?? 1) || b.index - a.index);
  const dropped: ColumnVisibilityState = {};
  for (const c of droppable) {
    if (total <= width) break;
    dropped[c.id] = false;
    total -= columnWidth(c.def.meta, local);
  }
  return dropped;
}

// ---- the person's choices, per table, in localStorage ----------------------------------------------

const PREFIX = "brokerdesk.columns.";
const store = storedChoices();
const cache = new Map<string, { raw: string | null; value: ColumnVisibilityState }>();
const EMPTY: ColumnVisibilityState = {};

function read(key: string): ColumnVisibilityState {
  const raw = store.read(PREFIX + key);
  const hit = cache.get(key);
  if (hit && hit.raw === raw) return hit.value;
  let value: ColumnVisibilityState = EMPTY;
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    if (parsed && typeof parsed === "object")
      value = Object.fromEntries(
        Object.entries(parsed).filter(([, v]) => typeof v === "boolean"),
      ) as ColumnVisibilityState;
  } catch {
    value = EMPTY;
  }
  cache.set(key, { raw, value });
  return value;
}

/** The person's column choices for one table (empty on the server and for a table without a key). */
export function useChosenColumns(
  key: string | undefined,
): [ColumnVisibilityState, (next: ColumnVisibilityState) => void] {
  const chosen = useSyncExternalStore(
    store.subscribe,
    () => (key ? read(key) : EMPTY),
    () => EMPTY,
  );
  const save = (next: ColumnVisibilityState) => {
    if (!key) return;
    // Storage refused: the choice holds until the page is left.
    store.write(PREFIX + key, JSON.stringify(next), () => cache.set(key, { raw: null, value: next }));
  };
  return [chosen, save];
}
