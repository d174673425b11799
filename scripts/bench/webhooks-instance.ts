// One instance of the webhooks benchmark's several (scripts/bench/webhooks.ts --instances N): a process of its own
// with its own pool on the shared PostgreSQL, running the notification worker as the app does (pg-boss's tick, the
// webhook fan-out and delivery). It is sent { url, bossSchema }, says "started", and stops at "stop".
import { openDb } from "@/server/db";
import { startNotificationJobs } from "@/server/notifications/worker";

type Config = { url: string; bossSchema: string };

process.once("message", (cfg: Config) => {
  void (async () => {
    const db = await openDb({ url: cfg.url });
    const jobs = await startNotificationJobs(db, null, { schema: cfg.bossSchema });
    process.on("message", (m) => {
      if (m !== "stop") return;
      void jobs
        .stop()
        .then(() => db.close())
        .finally(() => process.exit(0));
    });
    process.send?.("started");
  })().catch((e: unknown) => {
    process.send?.(`failed: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
});
