// Prints one closing line over every suite that ran: "tests: N passed, N failed".
import { existsSync, readFileSync } from "node:fs";

let passed = 0;
let failed = 0;
let skipped = 0;
const read = (f) => (existsSync(f) ? JSON.parse(readFileSync(f, "utf8")) : null);

const unit = read("reports/vitest.json");
if (unit) {
  passed += unit.numPassedTests ?? 0;
  failed += unit.numFailedTests ?? 0;
  skipped += (unit.numPendingTests ?? 0) + (unit.numTodoTests ?? 0);
}
for (const file of ["reports/e2e.json", "reports/scale.json"]) {
  const pw = read(file);
  if (!pw?.stats) continue;
  passed += (pw.stats.expected ?? 0) + (pw.stats.flaky ?? 0);
  failed += pw.stats.unexpected ?? 0;
  skipped += pw.stats.skipped ?? 0;
}
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
