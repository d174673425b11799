import "server-only";
// A Slack or Teams URL is the credential of the channel it posts to: the token in its path (a marker here) reaches
// no audit row (the add's intent and outcome, as the route writes them, and every later action's), no answer of
// the endpoint's routes, and no column in the clear; it is sealed, and a delivery still goes to the whole URL. An
// endpoint added before URLs were sealed is sealed at the jobs' start, and answered by host and fingerprint before.
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookResources, type CreateWebhookInput } from "@/lib/api/notifications/webhooks";
import { withAudit, type AuditAction } from "@/server/audit";
import type { StaffSession } from "@/server/auth/session";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { addStaff, staffSession } from "@/server/testing";
import { deliverWebhooks, fanOutWebhooks } from "./webhook-deliver";
import {
  approveWebhook,
  createWebhook,
  disableWebhook,
  listWebhookDeliveries,
  listWebhooks,
  rotateWebhookSecret,
  setWebhookEvents,
  webhookAuditInput,
} from "./webhook-endpoints";
import { sealPlainWebhookUrls, webhookUrlToSend } from "./webhook-url";

const MARKER = "MARKERhookpathtoken9d41";
const admin = staffSession("admin", "uada");
const admin2 = staffSession("admin", "uadb");
const lead = staffSession("lead", "ulea");

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[notifications][webhook-url] on $engine", (engine) => {
  const bed = databaseTestBed(engine);
  const got: string[] = [];
  const server: Server = createServer((req, res) => {
    got.push(req.url ?? "");
    req.resume().on("end", () => res.writeHead(204).end());
  });
  let origin = "";
  beforeAll(async () => {
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

  /** An action as its route runs it: audited (intent, outcome) as its entry says (what the outcome keeps). */
  const audited = <T>(
    session: StaffSession,
    entry: keyof typeof webhookResources,
    target: string,
    params: unknown,
    work: () => Promise<T>,
  ) => {
    const audit = webhookResources[entry].audit as { outcome?: (r: unknown) => unknown } | undefined;
    return withAudit(
      bed.db,
      { actor: session.email, actorRole: session.role, action: webhookResources[entry].id as AuditAction, target },
      params,
      work,
      (r) => (audit?.outcome ? audit.outcome(r) : r),
    );
  };

  it("[notifications][webhook-url] a Slack URL's path token is in no audit row, no answer, no clear column", async () => {
    await bed.db.query("TRUNCATE webhook_deliveries, webhook_endpoints, notification_events CASCADE");
    await addStaff(bed.db, [admin, admin2, lead]);
    const url = `${origin}/services/T0001/B0002/${MARKER}?k=${MARKER}`;
    const input: CreateWebhookInput = {
      url,
      description: "desk channel",
      format: "slack",
      audienceRole: "lead",
      events: ["withdrawal.awaiting_approval"],
    };
    const answers: unknown[] = [];
    const made = await audited(admin, "create", "webhooks", webhookAuditInput(input), () =>
      createWebhook(bed.db, admin, input, "simulator"),
    );
    answers.push(made);
    const id = made.endpoint.id;
    const fingerprint = createHash("sha256").update(url).digest("hex").slice(0, 8);
    expect(made.endpoint).toMatchObject({ url: `${origin}/…`, urlFingerprint: fingerprint });
    answers.push(
      await audited(admin2, "approve", `webhook:${id}`, undefined, () => approveWebhook(bed.db, admin2, id)),
    );
    answers.push(
      await audited(admin, "setEvents", `webhook:${id}`, { events: ["withdrawal.awaiting_approval"] }, () =>
        setWebhookEvents(bed.db, admin, id, ["withdrawal.awaiting_approval"]),
      ),
    );
    answers.push(await audited(admin, "rotate", `webhook:${id}`, undefined, () => rotateWebhookSecret(bed.db, id)));
    answers.push(await listWebhooks(bed.db));

    // Delivered to the whole URL: the sealed one opens.
    await bed.db.query(
      `INSERT INTO notification_events (type, payload, audience) VALUES ('withdrawal.awaiting_approval',
         '{"withdrawalId": "1", "subUid": "9", "coin": "USDT", "amount": "5", "requestedBy": "b@test"}',
         '{"permission": "withdrawals.approve"}')`,
    );
    await fanOutWebhooks(bed.db);
    expect(await deliverWebhooks(bed.db, { baseUrl: "https://brokerdesk.example" })).toMatchObject({ sent: 1 });
    expect(got).toEqual([`/services/T0001/B0002/${MARKER}?k=${MARKER}`]);
    answers.push(await listWebhookDeliveries(bed.db, id));
    answers.push(await audited(admin, "disable", `webhook:${id}`, undefined, () => disableWebhook(bed.db, id)));

    for (const a of answers) expect(JSON.stringify(a)).not.toContain(MARKER);
    const { rows: audit } = await bed.db.query<{ row: string }>(`SELECT row_to_json(a)::text AS row FROM audit_log a`);
    expect(audit.length).toBeGreaterThanOrEqual(10);
    for (const r of audit) expect(r.row).not.toContain(MARKER);
    // The intent keeps the host and fingerprint, so the log still says which endpoint it was.
    expect(audit.some((r) => r.row.includes(fingerprint))).toBe(true);
    const { rows: stored } = await bed.db.query<{ row: string }>(
      `SELECT row_to_json(w)::text AS row FROM webhook_endpoints w`,
    );
    expect(stored[0]!.row).not.toContain(MARKER);
  });

  it("[notifications][webhook-url] an endpoint from before sealing: answered by host, sealed at the jobs' start", async () => {
    await bed.db.query("TRUNCATE webhook_deliveries, webhook_endpoints, notification_events CASCADE");
    const url = `https://hooks.slack.example/services/T9/B9/${MARKER}`;
    const { rows } = await bed.db.query<{ id: string }>(
      `INSERT INTO webhook_endpoints (url, format, audience_role, secret_sealed, created_by)
       VALUES ($1, 'teams', 'lead', 'v1.x.y.z', 'old@test') RETURNING id::text`,
      [url],
    );
    const id = rows[0]!.id;
    expect(JSON.stringify(await listWebhooks(bed.db))).not.toContain(MARKER);
    expect(await sealPlainWebhookUrls(bed.db)).toBe(1);
    expect(await sealPlainWebhookUrls(bed.db)).toBe(0);
    const { rows: after } = await bed.db.query<{ row: string; url: string; url_sealed: string }>(
      `SELECT row_to_json(w)::text AS row, url, url_sealed FROM webhook_endpoints w`,
    );
    expect(after[0]!.row).not.toContain(MARKER);
    expect(after[0]!.url).toBe("https://hooks.slack.example/…");
    expect(webhookUrlToSend({ url: after[0]!.url, url_sealed: after[0]!.url_sealed, endpoint_id: id })).toBe(url);
    // Bound to its endpoint: the sealed URL copied to another row does not open.
    expect(() => webhookUrlToSend({ url: "", url_sealed: after[0]!.url_sealed, endpoint_id: `${id}0` })).toThrow();
  });
});
