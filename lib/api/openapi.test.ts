// The OpenAPI description is generated from the entries, and the entries are the routes: a route file under
// app/api without an entry, or an entry without its route file and exported method, fails here.
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AUDIT_ACTIONS } from "./audit/actions";
import { auditActionOf } from "./define-resource";
import { allResources, resources } from "./";
import { openapiDocument } from "./openapi";

const API = path.resolve(__dirname, "../../app/api");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** Every route file under app/api as "METHOD /api/path/{param}", from its folder and its exported methods. */
function routes(dir = API): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return routes(p);
    if (name !== "route.ts") return [];
    const urlPath = `/api/${path
      .relative(API, dir)
      .split(path.sep)
      .map((s) => s.replace(/^\[(\w+)\]$/, "{$1}"))
      .join("/")}`;
    const code = readFileSync(p, "utf8");
    return METHODS.filter((m) =>
      new RegExp(`export (const|async function|function) ${m}\\b|export \\{[^}]*\\bas ${m}\\b`).test(code),
    ).map((m) => `${m} ${urlPath}`);
  });
}

// next-auth owns its routes; they are not Brokerdesk's API.
const NOT_RESOURCES = ["GET /api/auth/{...nextauth}", "POST /api/auth/{...nextauth}"];

describe("[api][openapi] entries and routes", () => {
  it("every route under app/api has an entry, and every entry has its route and method", () => {
    const files = routes()
      .map((r) => r.replace("[...nextauth]", "{...nextauth}"))
      .filter((r) => !NOT_RESOURCES.includes(r))
      .sort();
    const entries = allResources()
      .map((r) => `${r.method} ${r.path}`)
      .sort();
    expect(files).toEqual(entries);
  });

  it("ids are unique among Brokerdesk's own routes and follow <resource>.<verb>", () => {
    const ids = Object.values(resources).map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-zA-Z]*\.[a-z][a-z-]*$/);
  });

  it("every audited entry names an audit action the log accepts", () => {
    for (const r of allResources().filter((x) => x.audit)) {
      expect(AUDIT_ACTIONS.options, r.id).toContain(auditActionOf(r, {}));
    }
    expect(auditActionOf(resources["users.update"]!, { disabled: true })).toBe("users.disable");
  });
});

describe("[api][openapi] the document", () => {
  const doc = openapiDocument("0.0.0-test");

  it("is OpenAPI 3.1 with one operation per entry, operationIds unique", () => {
    expect(doc.openapi).toBe("3.1.0");
    const ops = Object.values(doc.paths ?? {}).flatMap((item) =>
      Object.values(item as Record<string, { operationId: string }>),
    );
    expect(ops).toHaveLength(allResources().length);
    expect(new Set(ops.map((o) => o.operationId)).size).toBe(ops.length);
  });

  it("describes inputs, answers and the declared error codes from the entries", () => {
    const approve = doc.paths?.["/api/withdrawals/{id}/approve"]?.post;
    expect(approve?.operationId).toBe("withdrawals.approve");
    expect(approve?.parameters).toEqual([expect.objectContaining({ in: "path", name: "id", required: true })]);
    expect(JSON.stringify(approve?.requestBody)).toContain("confirmAmount");
    expect(JSON.stringify(approve?.responses?.["200"])).toContain("clientOid");
    expect(approve?.responses?.["409"]?.description).toBe("error.code: already_decided, already_in_progress");
    expect(approve?.responses?.["403"]?.description).toBe(
      "error.code: forbidden, csrf, own_request, approver_on_hold, approval_not_needed",
    );
    expect(approve?.description).toContain("withdrawals.approve");
    expect(approve?.description).toContain("mfa_stale");
    expect(approve?.responses?.["401"]?.description).toBe("error.code: unauthenticated, mfa_required, mfa_stale");

    const list = doc.paths?.["/api/audit"]?.get;
    expect(list?.parameters?.map((p) => ("name" in p ? p.name : ""))).toEqual(
      expect.arrayContaining(["actor", "action", "cursor", "limit"]),
    );
    expect(JSON.stringify(list?.responses?.["200"])).toContain("nextCursor");
    expect(Object.keys(doc.paths?.["/api/withdrawals/export"]?.get?.responses?.["200"]?.content ?? {})).toEqual([
      "text/csv",
    ]);
    expect(Object.keys(doc.paths?.["/api/exports"]?.post?.responses?.["200"]?.content ?? {})).toEqual([
      "application/x-ndjson",
    ]);
  });

  it("says who may call: a session for all but the health check", () => {
    expect(doc.paths?.["/api/health"]?.get?.security).toEqual([]);
    expect(doc.paths?.["/api/openapi.json"]?.get?.security).toEqual([{ session: [] }]);
    expect(
      doc.paths?.["/api/platform/v2/broker/account/create-subaccount"]?.post?.responses?.["403"]?.description,
    ).toContain("workflow_route");
  });
});
