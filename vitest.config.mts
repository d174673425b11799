import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { fileURLToPath } from "node:url";

/**
 * The files that take longest (CI's reports/vitest.json, `node scripts/test-times.mjs`), in the order they start.
 * A fresh clone has no timings of its own, so Vitest starts files in the order it finds them, and one that started
 * last ran on alone for a minute while the other workers sat idle (the pattern suite, 120 s, started at 228 s of
 * 348). The snapshot suite, the nearest its deadline (a pg-boss sweep of 27 s that must end within 100), starts once
 * the checks beside Vitest have had the cores for a while. The crash suites give their child process 90 s to answer,
 * so they run among the others; kept to the end, they ran alone for 51 s (2026-12-07, 651-702 s) while the cores
 * had nothing else to do. A list out of date costs time, never a test.
 */
const LONGEST_FIRST = [
  "server/workflows/export-run.test.ts",
  "server/ledger/deposits/backfill-order.test.ts",
  "server/audit/audit.test.ts",
  "server/monitoring/simulator-patterns.test.ts",
  "server/ledger/deposits/sync.test.ts",
  "server/leverage/plans/crash.test.ts",
  "server/db/backup.test.ts",
  "server/ledger/snapshots/sync.test.ts",
  "server/db/db.test.ts",
  "server/monitoring/evaluate.test.ts",
  "server/ledger/crash.test.ts",
  "server/workflows/withdrawal-crash.test.ts",
  "server/monitoring/crash.test.ts",
  "server/monitoring/coverage.test.ts",
  "server/workflows/withdrawal-holds.test.ts",
  "server/ledger/trades/sync.test.ts",
  "server/ledger/coverage.test.ts",
  "server/platform/limiter.test.ts",
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const first = LONGEST_FIRST.findIndex((p) => f.moduleId.endsWith(p));
      return first >= 0 ? first : LONGEST_FIRST.length;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL(".", import.meta.url)),
      // "server-only" throws outside React's server condition; tests run server code directly.
      "server-only": fileURLToPath(new URL("./node_modules/server-only/empty.js", import.meta.url)),
    },
  },
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", ".next/**", "e2e/**"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Failure-path tests log real errors on purpose; keep the run readable. bcrypt at its cheapest (lib/env.js
    // allows it in simulator mode only): the suites hash and compare passwords hundreds of times, and at the
    // production cost each is a third of a second of CPU; passwords.test.ts checks the cost is the one set.
    env: { LOG_LEVEL: "silent", PASSWORD_HASH_COST: "4" },
    // The embedded database's migrated template, made once for the run (server/db/test-template.ts).
    globalSetup: ["./server/db/test-template.ts"],
    pool: "forks",
    // Three files at a time on two cores: most of a database or simulator test is waiting (timers, sockets,
    // PostgreSQL), so one file per core left the CPU idle half the time (10.8 min serial, 5.6 with three).
    // Every test owns its ports, schema and data folder, so files never share state.
    maxWorkers: 3,
    sequence: { sequencer: LongestFirst },
    reporters: ["default", ["json", { outputFile: "reports/vitest.json" }]],
  },
});
