import "server-only";
// A plan's targets, chosen three ways: a filter over the registry (label, risk unit) and the leverage record
// (a symbol's recorded leverage above or below a value), an uploaded CSV of UID, symbol and leverage, or a hand-made
// list of UIDs. Then the preview: per target what the record holds (one query for all of them), the value asked,
// and whether a key of the sub-account exists that the planner's role may use (targets without one are listed
// apart and never sent). Every refusal names its field, and a CSV's its line and column.
import { invalidField, invalidFields, type FieldErrors } from "@/lib/api/errors";
import { PLAN_MAX_TARGETS, type PlanTargetsInput, type PreviewTarget } from "@/lib/api/leverage-plans";
import { checkLeverageBound, leverageSetFields } from "@/lib/platform/catalog/futures";
import type { Role } from "@/lib/rbac";
import * as z from "zod/mini";
import "@/lib/zod-english";
import type { Queryable } from "@/server/db";
import type { CredentialStore } from "@/server/platform/credentials";
import { csvFields } from "@/server/screening/csv";
import { ListParseError } from "@/server/screening/types";

export type Target = { subUid: string; symbol: string; leverage: string };

const targetRequest = leverageSetFields.check(z.superRefine(checkLeverageBound));

/** Checks one target as E10 would be asked for it; answers the first problem's field and message, or null. */
function targetProblem(t: Target, productType: string, marginCoin: string): { field: string; message: string } | null {
  const r = targetRequest.safeParse({ symbol: t.symbol, productType, marginCoin, leverage: t.leverage });
  if (r.success) return null;
  const issue = r.error.issues[0]!;
  return { field: String(issue.path[0] ?? "leverage"), message: issue.message };
}

/** The CSV upload: a header naming uid, symbol and leverage (any order, any case), then one target a line. */
export function parsePlanCsv(text: string, productType: string, marginCoin: string): Target[] {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  let columns: { uid: number; symbol: number; leverage: number } | null = null;
  const out: Target[] = [];
  const seen = new Map<string, number>();
  const refuse = (line: number, column: string, message: string): never => {
    throw invalidField("csv", `line ${line}, column ${column}: ${message}`);
  };
  lines.forEach((raw, i) => {
    const n = i + 1;
    if (raw.trim() === "") return;
    let fields: string[];
    try {
      fields = csvFields(raw, n).map((f) => f.trim());
    } catch (e) {
      if (e instanceof ListParseError) refuse(n, String(e.where.column ?? 1), e.reason);
      throw e;
    }
    if (!columns) {
      const names = fields.map((f) => f.toLowerCase());
      columns = { uid: names.indexOf("uid"), symbol: names.indexOf("symbol"), leverage: names.indexOf("leverage") };
      const missing = (["uid", "symbol", "leverage"] as const).filter((c) => columns![c] < 0);
      if (missing.length) refuse(n, missing[0]!, `the header has no column ${missing.join(", no column ")}`);
      return;
    }
    const t = {
      subUid: fields[columns.uid] ?? "",
      symbol: fields[columns.symbol] ?? "",
      leverage: fields[columns.leverage] ?? "",
    };
    if (!/^\d{1,32}$/.test(t.subUid)) refuse(n, "uid", "must be a sub-account's UID (digits)");
    const problem = targetProblem(t, productType, marginCoin);
    if (problem) refuse(n, problem.field, problem.message);
    const key = `${t.subUid}|${t.symbol}`;
    const first = seen.get(key);
    if (first !== undefined) refuse(n, "uid", `${t.subUid} ${t.symbol} is already on line ${first}`);
    seen.set(key, n);
    out.push(t);
    if (out.length > PLAN_MAX_TARGETS) refuse(n, "uid", `a plan holds at most ${PLAN_MAX_TARGETS} targets`);
  });
  if (!columns) throw invalidField("csv", "the file is empty: it needs a header uid,symbol,leverage and a row each");
  if (!out.length) throw invalidField("csv", "the file has a header and no targets");
  return out;
}

/** The symbol and leverage every target of a filter or a list is set to. */
function oneChange(input: PlanTargetsInput): { symbol: string; leverage: string } {
  const errors: FieldErrors = {};
  if (!input.symbol) errors.symbol = ["symbol is required for a filter or a list"];
  if (!input.leverage) errors.leverage = ["leverage is required for a filter or a list"];
  if (Object.keys(errors).length) throw invalidFields(errors);
  const change = { symbol: input.symbol!, leverage: input.leverage! };
  const problem = targetProblem({ subUid: "0", ...change }, input.productType, input.marginCoin);
  if (problem) throw invalidField(problem.field, problem.message);
  return change;
}

/** The hand-made list: UIDs separated by commas, spaces or new lines (each once). */
export function parseUidList(text: string | undefined): string[] {
  const words = (text ?? "").split(/[\s,;]+/).filter(Boolean);
  if (!words.length) throw invalidField("uids", "uids must list at least one sub-account UID");
  const bad = words.find((w) => !/^\d{1,32}$/.test(w));
  if (bad !== undefined) throw invalidField("uids", `"${bad.slice(0, 40)}" is not a UID (digits)`);
  const uids = [...new Set(words)];
  if (uids.length > PLAN_MAX_TARGETS)
    throw invalidField("uids", `a plan holds at most ${PLAN_MAX_TARGETS} targets (${uids.length} listed)`);
  return uids;
}

/** The sub-account UIDs whose key the role may use, from the credential store ("sub<UID>"). */
export function keyedUids(credentials: CredentialStore, role: Role): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of credentials.names()) {
    const uid = /^sub(\d{1,32})$/.exec(name)?.[1];
    if (uid && credentials.get(name).role === "sub-account" && credentials.mayChoose(name, role)) out.set(uid, name);
  }
  return out;
}

/** The registry's sub-accounts that match the filter (a label's part, a risk unit, the recorded leverage). */
async function filtered(
  db: Queryable,
  input: PlanTargetsInput,
  change: { symbol: string },
  keyed: Map<string, string>,
): Promise<string[]> {
  if (input.above && input.below && Number(input.above) >= Number(input.below))
    throw invalidField("below", "below must be more than above");
  const where = ["s.status <> 'del'"];
  const params: unknown[] = [input.productType, change.symbol];
  if (input.label) {
    params.push(`%${input.label.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(`s.label ILIKE $${params.length}`);
  }
  if (input.riskUnit) {
    params.push(input.riskUnit);
    where.push(
      `EXISTS (SELECT 1 FROM risk_unit_bindings b WHERE b.uid = s.sub_uid AND b.state = 'bound' AND b.risk_unit_id = $${params.length})`,
    );
  }
  // The recorded leverage: crossed mode's, else the long side's (both sides are set alike by a plan).
  const value = `(CASE WHEN r.margin_mode = 'crossed' THEN r.cross_leverage ELSE r.long_leverage END)::numeric`;
  for (const [bound, op] of [
    [input.above, ">"],
    [input.below, "<"],
  ] as const) {
    if (!bound) continue;
    params.push(bound);
    where.push(
      `EXISTS (SELECT 1 FROM leverage_record r WHERE r.sub_uid = s.sub_uid AND r.product_type = $1 AND r.symbol = $2
                 AND ${value} ${op} $${params.length}::numeric)`,
    );
  }
  const { rows } = await db.query<{ sub_uid: string }>(
    `SELECT s.sub_uid FROM subaccounts s WHERE ${where.join(" AND ")} AND $1::text IS NOT NULL AND $2::text IS NOT NULL
      ORDER BY s.sub_uid LIMIT ${PLAN_MAX_TARGETS + 1}`,
    params,
  );
  const uids = rows.map((r) => r.sub_uid).filter((u) => !input.keyOnly || keyed.has(u));
  if (uids.length > PLAN_MAX_TARGETS)
    throw invalidField("label", `the filter matches more than ${PLAN_MAX_TARGETS} sub-accounts: narrow it`);
  if (!uids.length) throw invalidField("source", "the filter matches no sub-account");
  return uids;
}

/** The targets the input chooses (not yet looked up). */
export async function chooseTargets(
  db: Queryable,
  input: PlanTargetsInput,
  keyed: Map<string, string>,
): Promise<Target[]> {
  if (input.source === "csv") {
    if (!input.csv) throw invalidField("csv", "csv is required: a header uid,symbol,leverage and a row per target");
    return parsePlanCsv(input.csv, input.productType, input.marginCoin);
  }
  const change = oneChange(input);
  const uids = input.source === "list" ? parseUidList(input.uids) : await filtered(db, input, change, keyed);
  return uids.map((subUid) => ({ subUid, ...change }));
}

/** What the record holds for each target, by "uid|symbol": one query for all of them. */
export async function currentValues(
  db: Queryable,
  productType: string,
  marginCoin: string,
  targets: readonly Target[],
): Promise<Map<string, string>> {
  const { rows } = await db.query<{ sub_uid: string; symbol: string; value: string }>(
    `SELECT DISTINCT ON (r.sub_uid, r.symbol) r.sub_uid, r.symbol,
            CASE WHEN r.margin_mode = 'crossed' THEN r.cross_leverage
                 WHEN r.long_leverage = r.short_leverage OR r.short_leverage = '' THEN r.long_leverage
                 ELSE r.long_leverage || '/' || r.short_leverage END AS value
       FROM leverage_record r
      WHERE r.sub_uid = ANY($1::text[]) AND r.symbol = ANY($2::text[]) AND r.product_type = $3 AND r.margin_coin = $4
      ORDER BY r.sub_uid, r.symbol, r.set_at DESC`,
    [[...new Set(targets.map((t) => t.subUid))], [...new Set(targets.map((t) => t.symbol))], productType, marginCoin],
  );
  return new Map(rows.map((r) => [`${r.sub_uid}|${r.symbol}`, r.value]));
}

/** The preview of the targets: those with a key first, then those without, each by UID then symbol. */
export async function previewTargets(
  db: Queryable,
  productType: string,
  marginCoin: string,
  targets: readonly Target[],
  keyed: Map<string, string>,
): Promise<PreviewTarget[]> {
  const uids = [...new Set(targets.map((t) => t.subUid))];
  const [current, names] = await Promise.all([
    currentValues(db, productType, marginCoin, targets),
    db.query<{ sub_uid: string; subaccount_name: string | null; label: string | null }>(
      "SELECT sub_uid, subaccount_name, label FROM subaccounts WHERE sub_uid = ANY($1::text[])",
      [uids],
    ),
  ]);
  const byUid = new Map(names.rows.map((r) => [r.sub_uid, r]));
  const items = targets.map((t) => ({
    subUid: t.subUid,
    name: byUid.get(t.subUid)?.subaccount_name ?? null,
    label: byUid.get(t.subUid)?.label ?? null,
    symbol: t.symbol,
    current: current.get(`${t.subUid}|${t.symbol}`) ?? null,
    leverage: t.leverage,
    hasKey: keyed.has(t.subUid),
  }));
  const byPlace = (a: PreviewTarget, b: PreviewTarget) =>
    Number(b.hasKey) - Number(a.hasKey) ||
    a.subUid.length - b.subUid.length ||
    a.subUid.localeCompare(b.subUid) ||
    a.symbol.localeCompare(b.symbol);
  return items.sort(byPlace);
}

/** The highest leverage asked of the targets (what the policy judges a plan by). */
export const highestOf = (targets: readonly { leverage: string }[]): string | null =>
  targets.length ? String(Math.max(...targets.map((t) => Number(t.leverage)))) : null;
