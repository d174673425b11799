import "server-only";
// The notification channels' jobs, on pg-boss: a tick every second, on one instance at a time per slot (pg-boss's
// throttle), that fans out new events to e-mail when there is a mailer (./fanout.ts, ./deliver.ts) and to webhook
// endpoints (./webhook-deliver.ts), sends what is due, and raises the escalations and periodic events due
// (./escalate.ts, ./periodic.ts). Exactly once comes from the rows, not from the job: a delivery is one row per
// (event, recipient or endpoint), claimed with a lease; an escalation or a periodic event one event under a unique
// index. Each step's failure is logged and the next step still runs (a failing check stops no delivery).
import { PgBoss } from "pg-boss";
import type { Db } from "@/server/db";
import { logger } from "@/server/log";
import { bossDb } from "@/server/ledger/engine";
import { deliverDue } from "./deliver";
import { raiseEscalations } from "./escalate";
import { fanOut } from "./fanout";
import { raiseAuditChainBroken, raiseOverdueCases, raisePlatformDown, raiseSyncBehind } from "./periodic";
import type { Mailer } from "./mailer";
import { deliverWebhooks, fanOutWebhooks } from "./webhook-deliver";
import { sealPlainWebhookUrls } from "./webhook-url";

const TICK_QUEUE = "notify-tick";
// A second, and a poll every half second: a webhook's first attempt within 2 s of its event's commit (p95, the
// benchmark's), for a tick whose steps are indexed reads that find nothing most of the time.
const TICK_SECONDS = 1;
const POLL_SECONDS = 0.5;
// The lasting conditions (sync behind, platform failing) are judged every 30 s per process: minutes matter there.
const EPISODES_EVERY_MS = 30_000;

export type NotificationJobs = { tick(): Promise<void>; stop(): Promise<void> };

/** Starts the tick; without a mailer, e-mail is off and webhooks and escalation still run. */
export async function startNotificationJobs(db: Db, mailer: Mailer | null, opts: { schema?: string } = {}) {
  const boss = new PgBoss({
    db: bossDb(db),
    schema: opts.schema ?? "pgboss",
    backend: db.engine === "pglite" ? "pglite" : "postgres",
    monitorIntervalSeconds: 5,
    superviseIntervalSeconds: 5,
  });
  boss.on("error", (e) => logger.error({ err: e instanceof Error ? e.message : String(e) }, "job engine error"));
  await boss.start();
  await boss.createQueue(TICK_QUEUE, { policy: "standard" });
  const step = async (what: string, run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (e) {
      logger.error({ step: what, err: e instanceof Error ? e.message : String(e) }, "notification step failed");
    }
  };
  // Slack and Teams URLs added before URLs were sealed are sealed now (migration 0181 could not).
  await step("seal webhook URLs", () => sealPlainWebhookUrls(db));
  let episodesAt = 0;
  const tick = async () => {
    await step("escalation", () => raiseEscalations(db));
    await step("case overdue", () => raiseOverdueCases(db));
    await step("audit chain", () => raiseAuditChainBroken(db));
    if (Date.now() - episodesAt >= EPISODES_EVERY_MS) {
      episodesAt = Date.now();
      await step("sync behind", () => raiseSyncBehind(db));
      await step("platform down", () => raisePlatformDown(db));
    }
    if (mailer) {
      await step("e-mail fan-out", () => fanOut(db));
      await step("e-mail", () => deliverDue(db, mailer));
    }
    await step("webhook fan-out", () => fanOutWebhooks(db));
    await step("webhooks", () => deliverWebhooks(db));
  };

  await boss.work(TICK_QUEUE, { pollingIntervalSeconds: POLL_SECONDS }, async () => {
    try {
      await tick();
    } finally {
      await boss.send(TICK_QUEUE, {}, { singletonSeconds: TICK_SECONDS, singletonNextSlot: true });
    }
  });
  await boss.send(TICK_QUEUE, {});
  logger.info({ mailer: mailer?.describe ?? "off" }, "notification jobs on (e-mail, webhooks, escalation)");
  return { tick, stop: () => boss.stop({ graceful: true, timeout: 5_000 }) } satisfies NotificationJobs;
}
