// Queueing in Brokerdesk is said as such: more reads at once than the platform's rate
// limit can serve within the proxy's queue wait get Brokerdesk's own 429 "busy" with Retry-After, at once,
// and the platform never sees them; a 504 stays reserved for a platform that was slow.
import { E2E_PLATFORM_TIMEOUT_MS, expect, test } from "./support/test";
import { proxyPath } from "./support/envelope";
import { clearFaults, opStats, setFaults, subUid } from "./support/faults";
import { signInApi } from "./support/staff";

test("[busy][rebates.get] 80 reads at once on a 10/s operation: the 10 the platform holds past the timeout 504, the other 70 429 busy with Retry-After, never sent", async ({
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
  // Ten reads the platform answers 2 s after the timeout hold all ten slots of E7's 10/s until the timeout and
  // one timeout more (an unanswered request may still reach the platform: server/platform/limiter.ts), so the
  // seventy sent once the platform has the ten cannot get a slot within the proxy's 3 s queue wait, however slow
  // this machine is. An earlier form had the ten answer 1 s inside the timeout so that some were served: on a
  // loaded CI machine (load 12) three of them took longer than the timeout and came back 504.
  await setFaults(request, [
    { path: "rebates.get", kind: "latency", latencyMs: E2E_PLATFORM_TIMEOUT_MS + 2_000, count: 10 },
  ]);
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
  const slowAnswers = answers.slice(0, 10);
  const busy = answers.slice(10);
  // The platform was slow: a 504 for each of the ten it held.
  expect(slowAnswers.map((a) => [a.status, a.body.error?.code])).toEqual(
    Array.from({ length: 10 }, () => [504, "platform_timeout"]),
  );
  // Brokerdesk was busy: its own 429 for the seventy, with when to try again, and the operation named.
  for (const b of busy) {
    expect(b.status, JSON.stringify(b.body)).toBe(429);
    expect(b.body.error?.code).toBe("rate_budget_exhausted");
    expect(b.body.error?.message).toMatch(/^Brokerdesk is busy: .*rebates\.get.* was not sent\. Try again in \d+ s$/);
    expect(Number(b.retryAfter)).toBeGreaterThanOrEqual(1);
  }
  // Only the ten reached the platform, and the platform refused none of them.
  const after = await opStats(request, "rebates.get");
  expect(after.requests - before.requests).toBe(10);
  expect(after.codes["429"] ?? 0).toBe(before.codes["429"] ?? 0);
});
