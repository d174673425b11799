// What the deposit ledger covers, as compliance meets it on a server whose sync has not run (LEDGER_SYNC off
// here: every registry sub-account is "not synced yet"): the API's answer names the sub-accounts a range does
// not cover, the empty page says "not synced yet" and never "no deposits", the list of those not covered is
// there to open, and an export of the range says it is incomplete in its first line and its audit entry.
import { signIn } from "./support/staff";
import { expect, test } from "./support/test";

type Coverage = {
  total: number;
  complete: number;
  missing: { subUid: string; subaccountName: string | null; completeTo: string | null }[];
};

test("[ledger][coverage] an unsynced range names what it does not cover: API, page, list and export", async ({
  page,
}) => {
  await signIn(page, "compliance", "/deposits");
  // A range older than E1's newest window: an approval's own refresh (another spec's, on this server) reads that
  // window into the ledger, sync or no sync, so only an older range is sure to hold nothing.
  const from = Date.now() - 200 * 86_400_000;
  const to = Date.now() - 100 * 86_400_000;
  const range = `from=${from}&to=${to}`;
  const res = await page.request.get(`/api/ledger/deposits?${range}&limit=5`);
  expect(res.status()).toBe(200);
  const { rows, coverage } = (await res.json()) as { rows: unknown[]; coverage: Coverage };
  expect(rows).toEqual([]);
  expect(coverage.total).toBeGreaterThan(0);
  expect(coverage.complete).toBe(0);
  expect(coverage.missing.length).toBe(Math.min(20, coverage.total));
  expect(coverage.missing.every((m) => m.completeTo === null)).toBe(true);

  // The page: "not synced yet" where a ledger of nothing would have said "no deposits".
  const day = (ms: number) => encodeURIComponent(new Date(ms).toISOString().slice(0, 16));
  await page.goto(`/deposits?from=${day(from)}&to=${day(to)}`);
  await expect(page.getByText(/^Not synced yet: nothing in the ledger so far\./)).toBeVisible();
  await expect(page.getByText(/No deposits/)).toHaveCount(0);
  const note = page.getByTestId("ledger-coverage");
  const n = coverage.total.toLocaleString("en-US");
  await expect(note).toContainText(`Complete for 0 of ${n} sub-accounts over this range; ${n} not synced back to`);
  await note.getByText(/^Not covered:/).click();
  const listed = note.getByRole("list", { name: "Sub-accounts not covered" }).getByRole("listitem");
  await expect(listed).toHaveCount(coverage.missing.length);
  await expect(listed.first()).toContainText("Deposit history not synced yet");

  // The whole list, a page at a time.
  const list = (await (await page.request.get(`/api/ledger/coverage?${range}&limit=3`)).json()) as {
    coverage: Coverage;
    nextCursor: string | null;
  };
  expect(list.coverage.missing).toHaveLength(Math.min(3, coverage.total));
  if (coverage.total > 3) expect(list.nextCursor).toBe(list.coverage.missing[2]!.subUid);

  // The export of the range: its first line and its audit entry say what it does not hold.
  const csv = await page.request.get(`/api/ledger/deposits/export?${range}`);
  expect(csv.status()).toBe(200);
  const first = (await csv.text()).split(/\r?\n/)[0]!;
  expect(first).toMatch(/^"# Incomplete: Complete for 0 of [\d,]+ sub-accounts over this range; /);
  const audit = (await (await page.request.get("/api/audit?action=ledger.deposits-export&limit=5")).json()) as {
    rows: { outcome: string; params: { coverage?: { complete: number; total: number; incomplete?: string } } }[];
  };
  const intent = audit.rows.find((r) => r.outcome === "intent" && r.params.coverage);
  expect(intent?.params.coverage).toMatchObject({ complete: 0, total: coverage.total });
  expect(intent?.params.coverage?.incomplete).toMatch(/^Complete for 0 of/);
});
