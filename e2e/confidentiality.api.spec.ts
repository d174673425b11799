// Compliance's work stays with compliance (tipping-off: FATF R.21, FinCEN SAR confidentiality), as a matrix over
// real HTTP. Compliance writes a holding rule and a drafted one, a note, a rejection, a snooze, a cleared hold and a
// closed case, each with unique marker text; then every role reads every GET route of Brokerdesk's own API
// (enumerated from lib/api, so a new route is in the matrix without editing this file), the CSV exports among
// them, and the audit log by each monitoring action and by the sub-account. No answer a role without
// monitoring.read receives holds a marker, a case's ID, or a rule's or version's ID. The broker sees only that
// their own request waits for compliance; the lead that it is held, and the refusal says no more.
// Its own instance: the holding rule it activates would hold every other spec's withdrawals.
import { randomUUID } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import { resources, type Resource } from "@/lib/api";
import { HELD_BY_COMPLIANCE, REJECTED_BY_COMPLIANCE } from "@/lib/api/audit/confidential";
import { can, ROLES, type Role } from "@/lib/rbac";
import { expect, test } from "./support/test";
import { startInstance, type Instance } from "./support/second-instance";
import { sameOrigin, signInApi } from "./support/staff";
import { TRAVEL_RULE } from "./support/travel-rule";

const M = `cfd${randomUUID().slice(0, 8)}`;
const MARK = {
  rule: `${M} rule name`,
  draft: `${M} drafted rule`,
  threshold: "31415926.53",
  note: `${M} note: SAR considered`,
  reject: `${M} reject reason`,
  snooze: `${M} snooze reason`,
  clear: `${M} clear reason`,
  close: `${M} close reason`,
};
const ADDRESS = "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE";

let instance: Instance;
const api: Partial<Record<Role, APIRequestContext>> = {};
/** What compliance made: the case, its sub-account, the requests, and every ID compliance's objects have. */
const made = { caseId: "", subUid: "", held: "", rejected: "", secretIds: [] as string[] };

const as = (role: Role) => api[role]!;
const readsMonitoring = (role: Role) => can(role, "monitoring.read");
async function post(role: Role, path: string, data: unknown = {}) {
  return as(role).post(path, { headers: sameOrigin(instance.baseURL), data });
}

const uuids = (text: string) => [
  ...new Set(text.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g)),
];

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(240_000);
  instance = await startInstance(
    "confidential",
    { APPROVER_COOL_OFF_HOURS: "0.001", DESTINATION_LOCK_HOURS: "0", LEDGER_SYNC: "off", PLATFORM_TIMEOUT_MS: "5000" },
    120_000,
  );
  for (const role of ROLES) {
    api[role] = await playwright.request.newContext({ baseURL: instance.baseURL });
    await signInApi(api[role], role);
  }
});

test.afterAll(async () => {
  for (const ctx of Object.values(api)) await ctx?.dispose();
  await instance?.stop();
});

test("[confidential] compliance works a held request with marker text; the lead's refusal and the holds say no more", async () => {
  test.setTimeout(120_000);
  const subs = (await (await as("broker").get("/api/sub-accounts")).json()) as {
    items: { subUid: string; subaccountName: string | null }[];
  };
  made.subUid = subs.items.find((s) => s.subaccountName?.startsWith("desk01@"))!.subUid;

  // A holding rule (activated by a second person) and a drafted one whose parameter is a marker.
  const rule = await post("compliance", "/api/monitoring/rules", {
    name: MARK.rule,
    kind: "new_destination",
    severity: "high",
    holds: true,
    params: { lookbackDays: 365 },
  });
  expect(rule.status(), await rule.text()).toBe(200);
  const activated = await post(
    "admin",
    `/api/monitoring/rule-versions/${((await rule.json()) as { id: string }).id}/activate`,
  );
  expect(activated.status(), await activated.text()).toBe(200);
  const draft = await post("compliance", "/api/monitoring/rules", {
    name: MARK.draft,
    kind: "velocity",
    severity: "low",
    holds: false,
    params: { source: "withdrawals", measure: "sum", coin: "USDT", limit: MARK.threshold, windowHours: 24 },
  });
  expect(draft.status(), await draft.text()).toBe(200);

  // The broker asks twice to a new address: held by the rule, gathered into a case.
  const request = async () => {
    const res = await post("broker", "/api/withdrawals", {
      subUid: made.subUid,
      coin: "USDT",
      dest: "on_chain",
      travelRule: TRAVEL_RULE,
      address: ADDRESS,
      amount: "2",
      reason: "client payout",
    });
    expect(res.status(), await res.text()).toBe(200);
    return ((await res.json()) as { id: string }).id;
  };
  made.held = await request();
  made.rejected = await request();
  await expect
    .poll(
      async () => {
        const page = (await (await as("compliance").get(`/api/monitoring/alerts?subUid=${made.subUid}`)).json()) as {
          items: { ruleName: string; status: string; caseId: string | null }[];
        };
        made.caseId = page.items.find((a) => a.ruleName === MARK.rule && a.status === "open")?.caseId ?? "";
        return made.caseId;
      },
      { timeout: 30_000, intervals: [500] },
    )
    .not.toBe("");
  const c = `/api/monitoring/cases/${made.caseId}`;
  // A decision names the case as its reviewer saw it (its version).
  const seen = async () => ((await (await as("compliance").get(c)).json()) as { version: number }).version;
  expect((await post("compliance", `${c}/notes`, { body: MARK.note })).status()).toBe(200);
  expect((await post("compliance", `${c}/records`, { recordKind: "withdrawal", recordId: made.held })).status()).toBe(
    200,
  );
  const rejected = await post("compliance", `${c}/reject-withdrawal`, {
    withdrawalId: made.rejected,
    reason: MARK.reject,
    version: await seen(),
  });
  expect(rejected.status(), await rejected.text()).toBe(200);

  // While it holds: the lead sees that it is held, the broker that their own request waits; neither sees why.
  const leadHolds = (await (await as("lead").get("/api/monitoring/holds")).json()) as { items: object[] };
  expect(leadHolds.items).toEqual([{ subUid: made.subUid }]);
  const brokerHolds = (await (await as("broker").get("/api/monitoring/holds")).json()) as { items: object[] };
  expect(brokerHolds.items).toEqual([{ subUid: made.subUid }]);
  const complianceHolds = (await (await as("compliance").get("/api/monitoring/holds")).json()) as {
    items: { rules?: string[]; caseId?: string | null }[];
  };
  expect(complianceHolds.items).toEqual([{ subUid: made.subUid, rules: [MARK.rule], caseId: made.caseId }]);
  const approve = await post("lead", `/api/withdrawals/${made.held}/approve`, {
    confirmAmount: "2",
    confirmAddress: ADDRESS,
  });
  expect(approve.status()).toBe(409);
  const refusal = (await approve.json()) as { error: { code: string; message: string } };
  expect(refusal.error).toMatchObject({ code: "withdrawal_held", message: HELD_BY_COMPLIANCE });

  // The bell: the lead is asked to approve, the broker told it is held by compliance, compliance of the high alert
  // with its rule's name (the matrix below checks no other role's bell holds the marker).
  type Inbox = { items: { type: string; text: string; href: string }[]; unread: number };
  const bell = async (role: Role) => (await (await as(role).get("/api/notifications")).json()) as Inbox;
  const leadBell = await bell("lead");
  // Both of the broker's requests wait for the lead, each in the approval queue.
  expect(
    leadBell.items.filter(
      (n) => n.type === "withdrawal.awaiting_approval" && n.text.includes(`sub-account ${made.subUid}`),
    ),
  ).toEqual([expect.objectContaining({ href: "/withdrawals" }), expect.objectContaining({ href: "/withdrawals" })]);
  const brokerBell = await bell("broker");
  expect(brokerBell.items.find((n) => n.type === "withdrawal.held" && n.href === `/withdrawals/${made.held}`)).toEqual(
    expect.objectContaining({ text: `Sub-account ${made.subUid}: held by compliance` }),
  );
  expect((await bell("compliance")).items.some((n) => n.type === "alert.high" && n.text.includes(MARK.rule))).toBe(
    true,
  );

  // A snooze (whatever its answer, its intent carries the reason), then the hold cleared and the case closed.
  const rules = await (await as("compliance").get("/api/monitoring/rules")).text();
  const ruleId = (JSON.parse(rules) as { items: { ruleId: string; name: string }[] }).items.find(
    (v) => v.name === MARK.rule,
  )!.ruleId;
  await post("compliance", "/api/monitoring/snoozes", {
    ruleId,
    subUid: made.subUid,
    until: new Date(Date.now() + 86_400_000).toISOString(),
    reason: MARK.snooze,
  });
  const cleared = await post("compliance", `${c}/clear-hold`, { reason: MARK.clear, version: await seen() });
  expect(cleared.status(), await cleared.text()).toBe(200);
  const closed = await post("compliance", `${c}/close`, {
    outcome: "reported",
    reason: MARK.close,
    version: await seen(),
  });
  expect(closed.status(), await closed.text()).toBe(200);
  made.secretIds = [...new Set([made.caseId, ...uuids(rules)])];

  // The requester reads that compliance rejected it, not why.
  const mine = (await (await as("broker").get(`/api/withdrawals/${made.rejected}`)).json()) as Record<string, unknown>;
  expect(mine).toMatchObject({ state: "rejected", rejectReason: REJECTED_BY_COMPLIANCE });
});

/** Every GET of Brokerdesk's own API with its path filled in, plus the reads that aim at compliance's entries. */
function reads(): { id: string; url: string }[] {
  const fill = (r: Resource) =>
    r.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      name === "id"
        ? r.path.startsWith("/api/withdrawals/")
          ? made.rejected
          : made.caseId
        : name === "subUid" || name === "uid"
          ? made.subUid
          : "none",
    );
  const query = (r: Resource) => {
    for (const q of [{}, { subUid: made.subUid }]) if (!r.input || r.input.safeParse(q).success) return q;
    return { subUid: made.subUid };
  };
  const gets = Object.values(resources)
    .filter((r) => r.method === "GET")
    .map((r) => ({ id: r.id, url: `${fill(r)}?${new URLSearchParams(query(r) as Record<string, string>)}` }));
  const audit = ["/api/audit", "/api/audit/export"].flatMap((path) =>
    [
      "monitoring.case-note",
      "monitoring.case-close",
      "monitoring.hold-clear",
      "monitoring.withdrawal-reject",
      "monitoring.rule-draft",
      "monitoring.rule-activate",
      "monitoring.snooze",
      "withdrawals.approve",
      "request.refused",
    ]
      .map((action) => `${path}?action=${action}`)
      .concat(`${path}?subUid=${made.subUid}`, `${path}?limit=500`),
  );
  const more = [
    `/api/withdrawals/${made.held}`,
    `/api/withdrawals?subUid=${made.subUid}`,
    `/api/withdrawals/export?subUid=${made.subUid}`,
    `/api/monitoring/alerts?caseId=${made.caseId}`,
    `/api/ledger/timeline?subUid=${made.subUid}`,
  ];
  return [...gets, ...[...audit, ...more].map((url) => ({ id: url, url }))];
}

for (const role of ROLES) {
  test(`[confidential][${role}] no answer of any GET route or export holds what ${role} may not read`, async () => {
    test.setTimeout(120_000);
    expect(made.caseId, "the scenario ran first").not.toBe("");
    const needles = [M, MARK.threshold, ...made.secretIds];
    const seen: string[] = [];
    const leaks: string[] = [];
    for (const { url } of reads()) {
      // A case's routes are compliance's: a role that may not read them asks with a case ID of nobody's, so what is
      // checked is its refusal, not an echo of a path it typed.
      const asked = readsMonitoring(role) ? url : url.replaceAll(made.caseId, randomUUID());
      const res = await as(role).get(asked);
      const body = await res.text();
      seen.push(`${res.status()} ${asked}`);
      for (const n of needles) if (body.includes(n)) leaks.push(`${asked} (${res.status()}) holds ${n}`);
    }
    // A monitoring role finds the markers on the same reads (the audit log, the case, the alerts, the rules):
    // the search can find what it looks for.
    if (readsMonitoring(role)) expect(leaks.length, leaks.join("\n")).toBeGreaterThan(20);
    else expect(leaks, leaks.join("\n")).toEqual([]);
    // The matrix reached the routes: the audit log and the withdrawals answered (not just refusals).
    const reached = seen.filter((s) => s.startsWith("200 ")).length;
    expect(reached, seen.join("\n")).toBeGreaterThan(10);
    if (readsMonitoring(role)) {
      // The markers are there to be found: a monitoring role reads them where the others cannot.
      const notes = await (await as(role).get("/api/audit?action=monitoring.case-note")).text();
      expect(notes).toContain(MARK.note);
      expect(await (await as(role).get(`/api/monitoring/cases/${made.caseId}`)).text()).toContain(MARK.close);
    } else if (can(role, "audit.read")) {
      // It exists: who, when, what, how it went.
      const page = (await (await as(role).get("/api/audit?action=monitoring.case-note")).json()) as {
        rows: { actor: string; outcome: string; target: string; params: unknown; confidential?: boolean }[];
      };
      expect(page.rows.map((x) => [x.outcome, x.target, x.params, x.confidential])).toContainEqual([
        "success",
        "case:[withheld]",
        null,
        true,
      ]);
    }
  });
}
