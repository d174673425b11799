import "server-only";
// An instance reduced to sending webhooks, for the kill -9 test (webhook-crash.test.ts): it takes its configuration
// over IPC, opens the database, says "started", then sends due deliveries one at a time as the notification tick
// does (webhook-deliver.ts). At its second mark, after the receiver has answered and before the row says so, it
// stops, says so, and waits there until the test kills it with SIGKILL.
import { openDb, type Db } from "@/server/db";
import { deliverWebhooks } from "./webhook-deliver";

export type WebhookCrashConfig = { db: { url: string } | { dataDir: string } };
export type WebhookCrashProgress = { stopped: boolean; marked: number };

const send = (p: WebhookCrashProgress) => process.send?.(p);

function stoppingAtSecondMark(db: Db): Db {
  const never = new Promise<never>(() => {});
  let marked = 0;
  return new Proxy(db, {
    get(target, key) {
      if (key !== "query") {
        const v: unknown = Reflect.get(target, key, target);
        return typeof v === "function" ? v.bind(target) : v;
      }
      return async (sql: string, params?: unknown[]) => {
        if (/^\s*UPDATE webhook_deliveries SET state = \$2, last_status/.test(sql)) {
          if (marked === 1) {
            send({ stopped: true, marked });
            await never;
          }
          marked++;
        }
        return target.query(sql, params);
      };
    },
  });
}

process.once("message", (cfg: WebhookCrashConfig) => {
  void (async () => {
    const db = stoppingAtSecondMark(await openDb(cfg.db));
    process.send?.("started");
    while ((await deliverWebhooks(db, { limit: 1 })).claimed > 0);
    send({ stopped: false, marked: -1 });
  })().catch((e: unknown) => {
    process.send?.(`failed: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
});
