// A run staff are waiting for queues for rate budget as their own calls do, against the simulator over
// loopback: every page of it asks the client's limiter as staff, ahead of the rest of the sync, whose pages
// ask as background work.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { databaseTestBed } from "@/server/db/testing";
import type { Db } from "@/server/db";
import type { PlatformClient } from "@/server/platform/client";
import type { Simulator } from "@/server/simulator";
import { deskUid } from "@/server/testing";
import { syncSubaccountDeposits } from "./deposits/sync";
import { freeBudget, ledgerTestBed } from "./testing";

const bed = ledgerTestBed();
let sim: Simulator;
let client: PlatformClient;
beforeAll(() => void ({ sim, client } = bed));

describe("[ledger][priority] the pages of a run staff are waiting for", () => {
  const t = databaseTestBed();
  let db: Db;
  beforeAll(() => void ({ db } = t));

  it("ask the limiter as staff when the run is urgent, as background work otherwise", async () => {
    const asked = vi.spyOn(client, "call");
    try {
      await syncSubaccountDeposits(deskUid(sim, "desk08"), {
        db,
        client,
        budget: freeBudget,
        backfill: "all",
        urgent: true,
      });
      const urgent = asked.mock.calls.map((c) => c[2]?.priority);
      asked.mockClear();
      await syncSubaccountDeposits(deskUid(sim, "desk09"), { db, client, budget: freeBudget, backfill: "step" });
      const routine = asked.mock.calls.map((c) => c[2]?.priority);
      // A whole history: its recent window and every window back to two empty ones.
      expect(urgent.length).toBeGreaterThanOrEqual(3);
      expect(new Set(urgent)).toEqual(new Set(["staff"]));
      expect(routine.length).toBeGreaterThan(0);
      expect(new Set(routine)).toEqual(new Set(["background"]));
    } finally {
      asked.mockRestore();
    }
  });
});
