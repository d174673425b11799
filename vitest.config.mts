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
    // Failure-path tests log real errors on purpose; keep the run readable.
    env: { LOG_LEVEL: "silent" },
    pool: "forks",
    reporters: ["default", ["json", { outputFile: "reports/vitest.json" }]],
  },
});
