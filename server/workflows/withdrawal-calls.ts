import "server-only";
// The withdrawals whose send this process is in the middle of (withdrawal-requests.ts). One it holds in the
// database (held_by) but is not sending lost its outcome, the database being unreachable when the platform
// answered: the recovery settles it once the database is back (instance-recovery.ts).

const g = globalThis as typeof globalThis & { __brokerdeskWithdrawalCalls?: Map<string, number> };
const callsHere = (g.__brokerdeskWithdrawalCalls ??= new Map<string, number>());

/** Runs one send of withdrawal `id`, counted as in flight here until it ends, however it ends. */
export function sendingHere<T>(id: string, send: () => Promise<T>): Promise<T> {
  callsHere.set(id, (callsHere.get(id) ?? 0) + 1);
  return send().finally(() => {
    const left = (callsHere.get(id) ?? 1) - 1;
    if (left) callsHere.set(id, left);
    else callsHere.delete(id);
  });
}

export const withdrawalsSendingHere = (): ReadonlySet<string> => new Set(callsHere.keys());
