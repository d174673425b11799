import "server-only";
// Whether the database answers, for the health route: a trivial statement within a deadline, so a database
// that hangs is reported as down rather than holding the health check for the pool's connection timeout.
import { getDb, type Db } from "./index";
import { isDatabaseUnreachable } from "./errors";

export type DatabaseProbe = { reachable: boolean; latencyMs: number | null; code: string | null };

const within = <T>(p: Promise<T>, ms: number): Promise<T> =>
  Promise.race([
    p,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error("no answer in time")), ms).unref()),
  ]);

/** No message: a connection error names the database's host and port, which health must not show. */
export async function probeDatabase(open: () => Promise<Db> = getDb, deadlineMs = 2_000): Promise<DatabaseProbe> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    const db = await within(open(), deadlineMs);
    await within(db.query("SELECT 1"), deadlineMs);
    return { reachable: true, latencyMs: latency(), code: null };
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    const said = typeof code === "string" && /^[A-Z0-9_]{1,32}$/.test(code) ? code : null;
    return {
      reachable: false,
      latencyMs: latency(),
      code: said ?? (isDatabaseUnreachable(e) ? "unreachable" : "timeout_or_error"),
    };
  }
}
