import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/server/db";
import { openTestPglite } from "@/server/db/testing";
import { syncLag } from "./lag";

let db: Db;
beforeAll(async () => {
  db = await openTestPglite();
});
afterAll(() => db.close());

describe("[ledger][metrics] sync lag per job", () => {
  it("is the stalest last success of each job, sub-accounts and keys alike, leaving out the never-checked", async () => {
    await db.query(
      `INSERT INTO ledger_sync (job, sub_uid, last_success_at) VALUES
         ('deposits', '1', now() - interval '40 seconds'), ('deposits', '2', now() - interval '5 seconds'), ('deposits', '3', NULL)`,
    );
    await db.query(
      `INSERT INTO ledger_key_sync (job, key_name, symbol, last_success_at) VALUES ('fills', 'main', '', now() - interval '90 seconds')`,
    );
    const lag = Object.fromEntries((await syncLag(db)).map((r) => [r.job, r.seconds]));
    expect(Object.keys(lag).sort()).toEqual(["deposits", "fills"]);
    expect(lag.deposits).toBeGreaterThanOrEqual(40);
    expect(lag.deposits).toBeLessThan(60);
    expect(lag.fills).toBeGreaterThanOrEqual(90);
  });
});
