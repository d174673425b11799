// The rescreen on the job engine (pg-boss, as the app runs it: server/ledger/engine.ts): a list version that becomes
// active queues a rescreen, and the engine's sweep runs it to its report, without anyone calling it. PGlite, and
// PostgreSQL with TEST_DATABASE_URL.
import { beforeAll, describe, expect, it } from "vitest";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { freeBudget, ledgerTestBed, queueHeartbeats, runEngineUntil } from "@/server/ledger/testing";
import { RUN_RETRIES } from "@/server/ledger/runs-queue";
import type { PlatformClient } from "@/server/platform/client";
import { importList } from "./import";
import { RESCREEN_QUEUE } from "./jobs";

const bed = ledgerTestBed();
let client: PlatformClient;
beforeAll(() => void ({ client } = bed));

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[screening][rescreen job] on $engine", (engine) => {
  const t = databaseTestBed(engine);

  it("[screening][rescreen job] the engine's sweep runs the rescreen an activation queued", async () => {
    await t.db.query(
      `INSERT INTO ledger_deposits (order_id, sub_uid, coin, amount, status, from_address, ctime)
       VALUES ('job-1', '7200000001', 'USDT', '10', 'success', 'TGWASS3j87E2Y3D3bLi7G2VErdUYbqpkLz', 1700000000000)`,
    );
    const v = await importList(t.db, ["address,chain,reason\nTGWASS3j87E2Y3D3bLi7G2VErdUYbqpkLz,TRX,x\n"], {
      format: "csv",
      importedBy: "carla@brokerdesk.test",
    });
    let heartbeat: number | null | undefined;
    await runEngineUntil(
      t,
      { client, share: 1, sweepSeconds: 1, activeSeconds: 600, budget: freeBudget },
      async (schema) => {
        heartbeat = (await queueHeartbeats(t.db, schema))[RESCREEN_QUEUE];
        const { rows } = await t.db.query<{ state: string }>(
          `SELECT state FROM screening_rescreens WHERE version_id = $1`,
          [v.id],
        );
        return rows[0]?.state === "done" || `rescreen ${rows[0]?.state ?? "missing"}`;
      },
    );
    expect(heartbeat).toBe(RUN_RETRIES.heartbeatSeconds);
    const { rows } = await t.db.query<{ report: { deposits: { matched: number } } }>(
      `SELECT report FROM screening_rescreens WHERE version_id = $1`,
      [v.id],
    );
    expect(rows[0]!.report.deposits.matched).toBe(1);
    const alerts = await t.db.query(`SELECT 1 FROM monitoring_alerts WHERE occurrence = 'd:job-1' AND status = 'open'`);
    expect(alerts.rows).toHaveLength(1);
  }, 90_000);
});
