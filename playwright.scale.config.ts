import { defineConfig } from "@playwright/test";

// The scale-out test: it starts Redis, a standalone simulator and three instances itself,
// from the build `npm test` (or `npm run test:e2e`) made. Needs redis-server and TEST_DATABASE_URL (.ci/run sets both).
export default defineConfig({
  testDir: "./e2e/scale",
  testMatch: /.*\.scale\.spec\.ts/,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 120_000,
  reporter: [["list"], ["json", { outputFile: "reports/scale.json" }]],
});
