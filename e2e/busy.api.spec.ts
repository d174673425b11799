// Queueing in Brokerdesk is said as such: more reads at once than the platform's rate
// limit can serve within the proxy's queue wait get Brokerdesk's own 429 "busy" with Retry-After, at once,
// and the platform never sees them; a 504 stays reserved for a platform that was slow.
import { E2E_PLATFORM_TIMEOUT_MS, expect, test } from "./support/test";
import { proxyPath } from "./support/envelope";
import { clearFaults, opStats, setFaults, subUid } from "./support/faults";
import { signInApi } from "./support/staff";

test("[busy][rebates.get] 80 reads at once on a 10/s operation: the 10 the platform holds past the timeout 504, the rest served at the platform's rate or 429 busy with Retry-After, never sent", async ({
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
  // Ten reads the platform answers 2 s after the timeout: each is the platform's slowness, a 504. The seventy sent
  // once the platform has the ten queue for E7's 10/s: within the proxy's 3 s queue wait at most four windows' worth
  // can go, so at least thirty are Brokerdesk's own 429 "busy", never sent. An earlier form had the ten answer 1 s
  // inside the timeout and expected them served: on a loaded CI machine (load 12) three took longer and were 504s.
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
  // The platform was slow: a 504 for each of the ten it held, and only for them.
  expect(answers.slice(0, 10).map((a) => [a.status, a.body.error?.code])).toEqual(
    Array.from({ length: 10 }, () => [504, "platform_timeout"]),
  );
  const rest = answers.slice(10);
  const served = rest.filter((a) => a.status === 200);
  const busy = rest.filter((a) => a.status === 429);
  expect(served.length + busy.length, JSON.stringify(rest.filter((a) => a.status !== 200 && a.status !== 429))).toBe(
    70,
  );
  expect(busy.length).toBeGreaterThanOrEqual(30);
  // Brokerdesk was busy: its own 429, with when to try again, and the operation named.
  for (const b of busy) {
    expect(b.body.error?.code).toBe("rate_budget_exhausted");
    expect(b.body.error?.message).toMatch(/^Brokerdesk is busy: .*rebates\.get.* was not sent\. Try again in \d+ s$/);
    expect(Number(b.retryAfter)).toBeGreaterThanOrEqual(1);
  }
  // Only the ten and what was served reached the platform, and the platform refused none of it.
  const after = await opStats(request, "rebates.get");
  expect(after.requests - before.requests).toBe(10 + served.length);
  expect(after.codes["429"] ?? 0).toBe(before.codes["429"] ?? 0);
});
