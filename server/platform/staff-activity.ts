import "server-only";
// What staff are doing with each platform operation, for the ledger's sync to make way: when a staff call of
// the operation was last asked for, and the staff walks (exports) of it under way. The sync spends idle rate
// budget beyond its share only while no staff call was asked for within the last window, and none at all
// while a walk of the operation runs (server/ledger/budget.ts). This process's view: on globalThis, as the
// sync's own counts are, since Next bundles routes and the sync's start-up apart.
const g = globalThis as typeof globalThis & {
  __brokerdeskStaffActivity?: { lastCall: Map<string, number>; walks: Map<string, number> };
};
const state = (g.__brokerdeskStaffActivity ??= { lastCall: new Map(), walks: new Map() });

/** A staff call of `operation` is asked for (the platform client says it, before it queues for budget). */
export function staffCalled(operation: string, now: number = Date.now()): void {
  state.lastCall.set(operation, now);
}

/**
 * A staff walk of `operation` starts: the sync of it pauses until every walk has ended. Call the answer once, at its
 * end.
 */
export function staffWalkStarted(operation: string): () => void {
  state.walks.set(operation, (state.walks.get(operation) ?? 0) + 1);
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    const n = (state.walks.get(operation) ?? 1) - 1;
    if (n > 0) state.walks.set(operation, n);
    else state.walks.delete(operation);
  };
}

/** A staff walk of `operation` is under way. */
export const staffWalking = (operation: string): boolean => (state.walks.get(operation) ?? 0) > 0;

/** No staff call of `operation` asked for within `withinMs`, and no walk of it under way. */
export const staffIdle = (operation: string, withinMs: number, now: number = Date.now()): boolean =>
  !staffWalking(operation) && now - (state.lastCall.get(operation) ?? -Infinity) > withinMs;
