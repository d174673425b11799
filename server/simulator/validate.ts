import "server-only";
import type { z } from "zod";
import type { KeyRole } from "@/lib/platform/define-endpoint";
import type { Catalog, OperationId } from "@/lib/platform/catalog";
import { SimError } from "./envelope";

export type RawParams = Record<string, unknown>;

/** The first value of each query parameter; unknown parameters pass through and the schema drops them. */
export function queryParams(rawQuery: string): RawParams {
  const out: RawParams = {};
  for (const [k, v] of new URLSearchParams(rawQuery)) if (!(k in out)) out[k] = v;
  return out;
}

/**
 * The JSON body as parameters. Clients send numbers and booleans (leverage: 20), so scalars become
 * strings, as the platform reads them; null counts as absent. An empty body is no parameters.
 * Invalid JSON, or JSON that is not an object, is 40017 "Parameter verification failed" (README).
 */
export function bodyParams(rawBody: string): RawParams {
  if (rawBody.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    throw SimError.platform("40017");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw SimError.platform("40017");
  const out: RawParams = {};
  for (const [k, v] of Object.entries(parsed)) {
    if (v === null) continue;
    out[k] = typeof v === "number" || typeof v === "boolean" || typeof v === "bigint" ? String(v) : v;
  }
  return out;
}

function isMissing(value: unknown): boolean {
  return value === undefined || (typeof value === "string" && value.trim() === "");
}

/**
 * Validates with the catalog's request schema and key rule and maps the first problem to the platform's
 * codes: a missing required parameter 40019 "Parameter X cannot be empty", any other 40020 "Parameter X error".
 */
export function validateParams<Id extends OperationId>(
  op: Catalog[Id],
  params: RawParams,
  keyRole: KeyRole | null,
): z.output<Catalog[Id]["request"]> {
  const result = op.request.safeParse(params);
  if (!result.success) {
    const issues = result.error.issues.map((i) => ({ field: String(i.path[0] ?? "params") }));
    const missing = issues.find((i) => isMissing(params[i.field]));
    if (missing) throw SimError.missing(missing.field);
    throw SimError.invalid(issues[0]?.field ?? "params");
  }
  const data = result.data as z.output<Catalog[Id]["request"]>;
  const keyRule = "keyRule" in op ? op.keyRule : undefined;
  if (keyRule && keyRole) {
    const problems = Object.keys((keyRule as (input: unknown, role: KeyRole) => Record<string, string>)(data, keyRole));
    const field = problems[0];
    if (field !== undefined) throw isMissing(params[field]) ? SimError.missing(field) : SimError.invalid(field);
  }
  return data;
}
