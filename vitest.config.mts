import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

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
    reporters: ["default", ["json", { outputFile: "reports/vitest.json" }]],
  },
});
