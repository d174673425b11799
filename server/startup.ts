import "server-only";
// Start-up (ARCHITECTURE "Modes"): what a Brokerdesk process does once before it serves anyone. Called by
// Next's instrumentation.ts in the server, and by the CLI tools that need the platform. In simulator mode
// without SIMULATOR_URL it starts the embedded simulator and hands its address to the platform client
// (the client never starts it itself); then it prepares the database: demo staff (created in simulator
// mode, disabled in live mode) and, in simulator mode, the registry seeded with the simulator's
// sub-accounts, the demo's monitoring rules (drafted by demo compliance, activated by the demo admin, unless
// MONITORING_DEMO_RULES is off) and its sub-account keys (minted by the simulator, approved by the demo admin).
// Routes and pages never seed. It checks the audit chain's head (server/audit/chain-check.ts).
import { z } from "zod";
import { env } from "@/lib/env";
import { auditHeadAtStart } from "@/server/audit/chain-check";
import { prepareStaffUsers } from "@/server/auth/sign-in";
import { getDb } from "@/server/db";
import { logger } from "@/server/log";
import { startProcessLedger } from "@/server/ledger/engine";
import { seedDemoRules } from "@/server/monitoring/demo-rules";
import { getMailer } from "@/server/notifications/mailer";
import { startNotificationJobs } from "@/server/notifications/worker";
import { getCredentials, getPlatformClient, platformBaseUrl, setEmbeddedSimulator } from "@/server/platform/runtime";
import { controlHeaders } from "@/server/simulator/control-token";
import { startProcessLease } from "@/server/workflows/instance-recovery";
import { seedRegistry } from "@/server/workflows/subaccounts";
import { seedDemoKeys } from "@/server/workflows/subaccount-keys-demo";

const g = globalThis as typeof globalThis & {
  __brokerdeskPlatformStarted?: Promise<string>;
  __brokerdeskStarted?: Promise<void>;
};

/** Where the platform is, starting the embedded simulator first when that is the mode. Once per process. */
export function startPlatform(): Promise<string> {
  g.__brokerdeskPlatformStarted ??= (async () => {
    const configured = platformBaseUrl();
    if (configured) return configured;
    const { startEmbeddedSimulator } = await import("@/server/simulator/embedded");
    const baseUrl = await startEmbeddedSimulator();
    setEmbeddedSimulator(baseUrl);
    return baseUrl;
  })();
  return g.__brokerdeskPlatformStarted;
}

/** The platform, then the database's demo staff and registry. Once per process. */
export function startApp(): Promise<void> {
  g.__brokerdeskStarted ??= (async () => {
    const baseUrl = await startPlatform();
    await untilDone(() => prepareData(baseUrl));
    // The demo's rules, after the demo staff who make them; the ledger's jobs below evaluate them as it syncs.
    if (env.monitoringDemoRules) {
      await untilDone(async () => {
        const { skipped } = await seedDemoRules(await getDb());
        if (skipped) logger.warn({ skipped }, "the demo's monitoring rules were not seeded");
      });
    }
    // The audit chain's head against its last entries: a mismatch is said on /audit and /metrics.
    await untilDone(async () => {
      await auditHeadAtStart(await getDb());
    });
    // This instance's lease, and the settling of whatever an instance that stopped left in flight.
    await untilDone(async () => {
      await startProcessLease(await getDb(), await getPlatformClient());
    });
    // Notifications: e-mail when there is a server to send through (SMTP_URL, or the simulator's sink), webhooks
    // and the escalation of approvals nobody acted on.
    await untilDone(async () => {
      await startNotificationJobs(await getDb(), await getMailer());
    });
    // Simulator mode: the database's sub-account keys registered on the simulator again, and the demo's minted once
    // (a few hundred requests to the simulator: about two seconds, so not waited for; the app serves meanwhile).
    if (env.mode === "simulator") {
      void untilDone(async () => {
        const { skipped } = await seedDemoKeys(await getDb(), baseUrl, getCredentials());
        if (skipped) logger.warn({ skipped }, "the demo's sub-account keys were not seeded");
      });
    }
    // The ledger's sync jobs, after the registry they walk exists. A failure to start them is
    // said and retried; the app serves meanwhile (live reads do not need them).
    if (env.ledger.sync) {
      await untilDone(async () => {
        await startProcessLedger(await getDb(), await getPlatformClient());
      });
    }
  })();
  return g.__brokerdeskStarted;
}

const simSubaccounts = z.object({
  items: z.array(
    z.object({
      subUid: z.string(),
      subaccountName: z.string(),
      label: z.string(),
      status: z.string(),
      permList: z.array(z.string()),
      cTime: z.string(),
    }),
  ),
});

async function prepareData(baseUrl: string): Promise<void> {
  const db = await getDb();
  await prepareStaffUsers(db);
  if (env.mode !== "simulator") return;
  // The platform cannot list sub-accounts; the simulator can (its own endpoint, never a platform path).
  const res = await fetch(new URL("__sim/subaccounts", baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`), {
    headers: controlHeaders(),
  });
  if (!res.ok) throw new Error(`the simulator's sub-account list answered HTTP ${res.status}`);
  const added = await seedRegistry(db, simSubaccounts.parse(await res.json()).items);
  if (added) logger.info({ added }, "registry seeded with the simulator's sub-accounts");
}

const RETRY_MS = 5_000;

/**
 * The first try is waited for. If it fails (PostgreSQL or a standalone simulator not up yet), the server
 * still starts and says so, and the preparation is tried again in the background until it succeeds.
 */
async function untilDone(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (e) {
    logger.error({ err: String(e), retryMs: RETRY_MS }, "start-up preparation failed; retrying in the background");
    const retry = () =>
      work().then(
        () => logger.info("start-up preparation done"),
        (err: unknown) => {
          logger.error({ err: String(err) }, "start-up preparation failed again");
          setTimeout(retry, RETRY_MS).unref();
        },
      );
    setTimeout(retry, RETRY_MS).unref();
  }
}
