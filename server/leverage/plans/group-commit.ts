import "server-only";
// Group commit: callers that arrive while a transaction of their kind is running wait for the next one, which takes
// all of them at once. Every audit entry takes the chain's head row lock (server/audit/audit-log.ts), so a rollout's
// workers writing one entry each would queue on that lock one commit at a time; together, one lock and one commit
// carry them all. Each caller still gets its own answer, or the transaction's error.
import type { Db, Queryable } from "@/server/db";

export function groupCommit<I, O>(
  db: Db,
  run: (tx: Queryable, items: readonly I[]) => Promise<O[]>,
): (item: I) => Promise<O> {
  let waiting: { item: I; resolve: (o: O) => void; reject: (e: unknown) => void }[] = [];
  let running = false;
  const flush = async (): Promise<void> => {
    if (running || !waiting.length) return;
    running = true;
    const batch = waiting;
    waiting = [];
    try {
      const out = await db.transaction((tx) =>
        run(
          tx,
          batch.map((b) => b.item),
        ),
      );
      batch.forEach((b, i) => b.resolve(out[i]!));
    } catch (e) {
      for (const b of batch) b.reject(e);
    } finally {
      running = false;
      void flush();
    }
  };
  return (item) =>
    new Promise<O>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      void flush();
    });
}
