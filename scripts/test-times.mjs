// `node scripts/test-times.mjs [reports-folder] [--top N]`: where the last run's time went, from the JSON
// reports npm test writes (reports/vitest.json, reports/e2e.json, reports/scale.json). Per step: its wall time
// and summed test time; per file: its time, and for Playwright the time its worker spent outside the file's tests
// (start-ups, beforeAll hooks, waits), which the per-test figures do not show. See docs/testing.md.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const args = process.argv.slice(2);
const topAt = args.indexOf("--top");
const top = topAt >= 0 ? Number(args[topAt + 1]) : 15;
const dir = args.find((a, i) => !a.startsWith("--") && (topAt < 0 || i !== topAt + 1)) ?? "reports";
const read = (f) => (existsSync(path.join(dir, f)) ? JSON.parse(readFileSync(path.join(dir, f), "utf8")) : null);
const s = (ms) => `${(ms / 1000).toFixed(1).padStart(7)} s`;
const say = (line) => process.stdout.write(`${line}\n`);
const clock = (ms) => new Date(ms).toISOString().slice(11, 19);

const unit = read("vitest.json");
if (unit) {
  const files = unit.testResults.map((f) => ({
    name: path.relative(process.cwd(), f.name),
    ms: f.endTime - f.startTime,
    tests: f.assertionResults.length,
    start: f.startTime,
    end: f.endTime,
  }));
  const first = Math.min(...files.map((f) => f.start));
  const last = Math.max(...files.map((f) => f.end));
  const summed = files.reduce((n, f) => n + f.ms, 0);
  say(`vitest: ${clock(first)}-${clock(last)} UTC, wall ${s(last - first)}, files summed ${s(summed)}`);
  for (const f of files.sort((a, b) => b.ms - a.ms).slice(0, top))
    say(`  ${s(f.ms)}  ${String(f.tests).padStart(3)} tests  ${f.name}`);
}

for (const report of ["e2e.json", "scale.json"]) {
  const pw = read(report);
  if (!pw) continue;
  const results = [];
  const walk = (suite, file) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests)
        for (const r of t.results)
          results.push({
            file: suite.file ?? file,
            start: Date.parse(r.startTime),
            ms: r.duration,
            lane: r.parallelIndex,
          });
    for (const child of suite.suites ?? []) walk(child, suite.file ?? file);
  };
  for (const suite of pw.suites) walk(suite, suite.file);
  const start = Date.parse(pw.stats.startTime);
  const summed = results.reduce((n, r) => n + r.ms, 0);
  say(`${report}: from ${clock(start)} UTC, wall ${s(pw.stats.duration)}, tests summed ${s(summed)}`);
  // Time a lane (worker slot) spent between tests: a file's beforeAll (instances, waits) runs after its first
  // test's recorded start and before that test's body, so a gap after a file's first test is that file's;
  // any other gap (a worker's start, an afterAll) is put on the file whose test comes next.
  const byFile = new Map();
  const lanes = new Map();
  const entry = (file) => byFile.get(file) ?? byFile.set(file, { tests: 0, ms: 0, outside: 0 }).get(file);
  for (const r of results.sort((a, b) => a.start - b.start)) {
    const lane = lanes.get(r.lane) ?? { end: start, file: null, count: 0 };
    const gap = Math.max(0, r.start - lane.end);
    entry(lane.count === 1 && lane.file ? lane.file : r.file).outside += gap;
    const f = entry(r.file);
    f.tests++;
    f.ms += r.ms;
    lanes.set(r.lane, { end: r.start + r.ms, file: r.file, count: lane.file === r.file ? lane.count + 1 : 1 });
  }
  // A lane's last file, if one test in: the time to the run's end was its beforeAll (less the run's teardown).
  for (const lane of lanes.values())
    if (lane.count === 1 && lane.file) entry(lane.file).outside += Math.max(0, start + pw.stats.duration - lane.end);
  const rows = [...byFile].sort((a, b) => b[1].ms + b[1].outside - (a[1].ms + a[1].outside));
  for (const [file, f] of rows.slice(0, top))
    say(`  ${s(f.ms)} in tests ${s(f.outside)} outside  ${String(f.tests).padStart(3)} tests  ${file}`);
}
