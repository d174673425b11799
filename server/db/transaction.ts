import "server-only";
import type { AsyncLocalStorage } from "node:async_hooks";
import type { Queryable } from "./types";
import { DbMisuseError } from "./errors";

type Raw = (sql: string, params?: unknown[]) => Promise<{ rows: unknown[] }>;

/** Thrown when the callback swallowed a failed statement: PostgreSQL would turn COMMIT into ROLLBACK silently. */
export class TransactionAbortedError extends Error {
  readonly code = "TX_ABORTED";
  constructor(cause: unknown) {
    super("transaction aborted: a statement inside it failed and the callback did not rethrow", { cause });
    this.name = "TransactionAbortedError";
  }
}

/**
 * BEGIN, fn(tx), COMMIT; ROLLBACK on throw. `raw` must address one connection that nothing else uses
 * meanwhile (a checked-out pg client, or PGlite inside the adapter's queue). `scope.run` marks the
 * callback's async context so the outer Db can refuse to be used from inside it.
 */
export async function runTransaction<T>(
  raw: Raw,
  scope: { als: AsyncLocalStorage<object>; token: object },
  fn: (tx: Queryable) => Promise<T>,
): Promise<T> {
  let failed = false;
  let finished = false;
  const tx: Queryable = {
    async query<R = Record<string, unknown>>(sql: string, params?: unknown[]) {
      // A tx kept past its callback would run statements on a connection someone else now owns.
      if (finished) throw new DbMisuseError();
      try {
        return (await raw(sql, params)) as { rows: R[] };
      } catch (e) {
        failed = true;
        throw e;
      }
    },
  };
  await raw("BEGIN");
  try {
    const result = await scope.als.run(scope.token, () => fn(tx));
    if (failed) {
      // A SAVEPOINT may have recovered the failure; if not, this probe fails and we roll back loudly.
      await raw("SELECT 1").catch((e: unknown) => {
        throw new TransactionAbortedError(e);
      });
    }
    await raw("COMMIT");
    return result;
  } catch (e) {
    await raw("ROLLBACK").catch(() => undefined);
    throw e;
  } finally {
    finished = true;
  }
}
