// Queueing in Brokerdesk is said as such: more reads at once than the platform's rate
// limit can serve within the proxy's queue wait get Brokerdesk's own 429 "busy" with Retry-After, at once,
// and the platform never sees them; a 504 stays reserved for a platform that was slow.
import { expect, test } from "./support/test";
import { proxyPath } from "./support/envelope";
import { clearFaults, opStats, setFaults, subUid } from "./support/faults";
import { signInApi } from "./support/staff";

test("[busy][rebates.get] 80 reads at once on a 10/s operation: some served, the rest 429 busy with Retry-After, none 504, none sent", async ({
  request,
}) => {
  await signInApi(request, "compliance");
  const uid = await subUid(request, "desk02");
  const before = await opStats(request, "rebates.get");
  const read = async () => {
    const res = await request.get(`${proxyPath("rebates.get")}?uid=${uid}`);
    return {
      status: res.status(),
      retryAfter: res.headers()["retry-after"],
      body: (await res.json()) as { error?: { code: string; message: string } },
    };
  };
  // Ten reads that the platform answers in 4 s (under the 5 s timeout) hold all ten slots of E7's 10/s; the
  // seventy sent once the platform has them cannot get a slot within the proxy's 3 s queue wait until those
  // answer. Sent all at once instead, the reads only queued if this machine's server let them in faster than
  // the platform's limit: on a loaded CI run all 80 trickled in, were served in turn, and none was busy.
  await setFaults(request, [{ path: "rebates.get", kind: "latency", latencyMs: 4_000, count: 10 }]);
  let answers: Awaited<ReturnType<typeof read>>[];
  try {
    const slow = Array.from({ length: 10 }, read);
    await expect
      .poll(async () => (await opStats(request, "rebates.get")).requests - before.requests, {
        intervals: [20],
        timeout: 10_000,
      })
      .toBe(10);
    answers = await Promise.all([...slow, ...Array.from({ length: 70 }, read)]);
  } finally {
    await clearFaults(request);
  }
  const served = answers.filter((a) => a.status === 200);
  const busy = answers.filter((a) => a.status === 429);
  expect(served.length + busy.length, JSON.stringify(answers.filter((a) => a.status !== 200 && a.status !== 429))).toBe(
    80,
  );
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
