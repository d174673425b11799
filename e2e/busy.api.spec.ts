// Queueing in Brokerdesk is said as such (issue 15, item 3): more reads at once than the platform's rate
// limit can serve within the proxy's queue wait get Brokerdesk's own 429 "busy" with Retry-After, at once,
// and the platform never sees them; a 504 stays reserved for a platform that was slow.
import { expect, test } from "./support/test";
import { proxyPath } from "./support/envelope";
import { opStats, subUid } from "./support/faults";
import { signInApi } from "./support/staff";

test("[busy][rebates.get] 80 reads at once on a 10/s operation: some served, the rest 429 busy with Retry-After, none 504, none sent", async ({ request }) => {
  await signInApi(request, "compliance");
  const uid = await subUid(request, "desk02");
  const before = await opStats(request, "rebates.get");
  const answers = await Promise.all(
    Array.from({ length: 80 }, async () => {
      const res = await request.get(`${proxyPath("rebates.get")}?uid=${uid}`);
      return { status: res.status(), retryAfter: res.headers()["retry-after"], body: (await res.json()) as { error?: { code: string; message: string } } };
    }),
  );
  const served = answers.filter((a) => a.status === 200);
  const busy = answers.filter((a) => a.status === 429);
  expect(served.length + busy.length, JSON.stringify(answers.filter((a) => a.status !== 200 && a.status !== 429))).toBe(80);
  expect(served.length).toBeGreaterThanOrEqual(10);
  expect(busy.length).toBeGreaterThan(0);
  for (const b of busy) {
    expect(b.body.error?.code).toBe("rate_budget_exhausted");
    expect(b.body.error?.message).toMatch(/^Brokerdesk is busy: .*rebates\.get.* was not sent\. Try again in \d+ s$/);
    expect(Number(b.retryAfter)).toBeGreaterThanOrEqual(1);
  }
  // Only what Brokerdesk served reached the platform, and the platform refused none of it.
  const after = await opStats(request, "rebates.get");
  expect(after.requests - before.requests).toBe(served.length);
  expect(after.codes["429"] ?? 0).toBe(before.codes["429"] ?? 0);
});
