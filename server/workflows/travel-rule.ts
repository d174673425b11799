import "server-only";
// The Travel Rule on withdrawals: whether a request must carry the originator's and the beneficiary's data
// (IVMS101), and the record it keeps. The originator is copied from the sub-account's registry holder as it
// is at request time, so a later edit of the registry changes no request already made.
import Big from "big.js";
import { DomainError } from "@/lib/api/errors";
import type { TravelRuleRecord, TravelRuleValues, WithdrawalFormValues } from "@/lib/api/withdrawals";
import { env } from "@/lib/env";
import {
  identityPayloadSchema,
  originatorPersonSchema,
  personName,
  vaspPerson,
  type IdentityPayload,
} from "@/lib/ivms101";
import { openAudit, sealOf } from "@/server/audit";
import type { StaffSession } from "@/server/auth/session";
import type { Db, Queryable } from "@/server/db";
import { failureDetail } from "@/server/failures";
import { loadRow, toView, type AuditContext } from "./withdrawal-ledger";

const refuse = (field: string, message: string) => new DomainError("invalid_input", message, { [field]: [message] });

/**
 * Whether the rule applies: on chain, at or above the threshold by the day's USDT value. A request the day has
 * no price for (valueUsdt null) is treated as above: the rule fails closed. An internal transfer stays within
 * the broker, one VASP, and is exempt.
 */
export function travelRuleApplies(
  dest: WithdrawalFormValues["dest"],
  valueUsdt: string | null,
  thresholdUsdt: string,
): boolean {
  if (dest !== "on_chain") return false;
  if (new Big(thresholdUsdt).eq(0) || valueUsdt === null) return true;
  return new Big(valueUsdt).gte(thresholdUsdt);
}

/**
 * Refuses, before anything is read from the platform or written, an on-chain request without the data when the
 * rule applies whatever the value (a threshold of 0, the default).
 */
export function refuseWithoutTravelRuleEarly(input: WithdrawalFormValues, thresholdUsdt: string): void {
  if (input.dest === "on_chain" && new Big(thresholdUsdt).eq(0) && !input.travelRule) throw missing();
}

const missing = () =>
  refuse(
    "travelRule",
    "travelRule is required: an on-chain withdrawal at or above the Travel Rule's threshold carries the " +
      "beneficiary's data (IVMS101) and the beneficiary's VASP or a self-hosted wallet's attestation",
  );

/** The sub-account's holder as an IVMS101 originator person, or a refusal naming what is missing. */
async function originatorOf(db: Queryable, subUid: string) {
  const { rows } = await db.query<{ holder: unknown }>("SELECT holder FROM subaccounts WHERE sub_uid = $1", [subUid]);
  const raw = typeof rows[0]?.holder === "string" ? JSON.parse(rows[0].holder) : rows[0]?.holder;
  if (!raw) {
    throw refuse(
      "subUid",
      `Sub-account ${subUid} has no holder data in the registry: the Travel Rule's originator comes from it ` +
        "(a broker records it on the sub-account's page)",
    );
  }
  const parsed = originatorPersonSchema.safeParse(raw);
  if (!parsed.success) {
    throw refuse("subUid", `Sub-account ${subUid}'s holder data is incomplete: ${parsed.error.issues[0]?.message}`);
  }
  return parsed.data;
}

/**
 * The record a request keeps, or null when the rule does not apply and no data was given. Data given below the
 * threshold is kept too (the requester chose to record it). Throws a 422 naming the field when it is missing.
 */
export async function travelRuleRecordFor(
  db: Queryable,
  session: StaffSession,
  input: WithdrawalFormValues,
  valueUsdt: string | null,
  thresholdUsdt: string,
  now: Date = new Date(),
): Promise<TravelRuleRecord | null> {
  const given: TravelRuleValues | undefined = input.dest === "on_chain" ? input.travelRule : undefined;
  if (!given) {
    if (travelRuleApplies(input.dest, valueUsdt, thresholdUsdt)) throw missing();
    return null;
  }
  const accounts = given.beneficiary.accountNumber ?? [input.address];
  if (!accounts.includes(input.address)) {
    throw refuse("travelRule.beneficiary.accountNumber", "accountNumber must include the withdrawal's address");
  }
  const originator = await originatorOf(db, input.subUid);
  const vasp = env.travelRule;
  const ivms101: IdentityPayload = {
    originator: { originatorPersons: [originator], accountNumber: [input.subUid] },
    beneficiary: { beneficiaryPersons: given.beneficiary.beneficiaryPersons, accountNumber: accounts },
    originatingVASP: { originatingVASP: vaspPerson(vasp.vaspName, vasp.vaspLei, vasp.vaspCountry) },
    ...(given.beneficiaryVASP ? { beneficiaryVASP: given.beneficiaryVASP } : {}),
  };
  // Held to the model as a whole before it is stored: what is exported later parses back.
  const whole = identityPayloadSchema.safeParse(ivms101);
  if (!whole.success) {
    const issue = whole.error.issues[0];
    throw refuse(`travelRule.${issue?.path.join(".") ?? ""}`, issue?.message ?? "not valid IVMS101");
  }
  return {
    ivms101: whole.data,
    selfHostedWallet: given.selfHostedWallet
      ? { ...given.selfHostedWallet, attestedBy: session.email, attestedAt: now.toISOString() }
      : null,
    thresholdUsdt,
    valueUsdt,
  };
}

/**
 * The names a request's Travel Rule data carries (originator and beneficiary persons, the beneficiary's VASP),
 * for screening against the sanctions lists' holder names (server/screening/ matches them; exact and
 * normalised). The hook screening calls; nothing here decides a match.
 */
export function travelRuleNamesForScreening(record: TravelRuleRecord): { role: string; name: string }[] {
  const p = record.ivms101;
  return [
    ...p.originator.originatorPersons.map((x) => ({ role: "originator", name: personName(x) })),
    ...p.beneficiary.beneficiaryPersons.map((x) => ({ role: "beneficiary", name: personName(x) })),
    ...(p.beneficiaryVASP ? [{ role: "beneficiaryVASP", name: personName(p.beneficiaryVASP.beneficiaryVASP) }] : []),
  ].filter((n) => n.name);
}

/**
 * The request's Travel Rule data as an IVMS101 JSON file, built whole and sealed like every export: the intent
 * first, then the outcome with the file's SHA-256 and size before a byte is sent (`npm run audit:which`).
 */
export async function travelRuleExport(
  db: Db,
  session: StaffSession,
  id: string,
  ctx: AuditContext = {},
): Promise<{ name: string; bytes: Uint8Array }> {
  const row = await loadRow(db, id);
  const record = toView(row).travelRule;
  if (!record)
    throw new DomainError("not_found", `Withdrawal ${id} carries no Travel Rule data (the rule did not apply)`);
  const trail = await openAudit(
    db,
    {
      actor: session.email,
      actorRole: session.role,
      action: "withdrawals.travel-rule-export",
      target: `withdrawal:${id}`,
      requestId: ctx.requestId ?? null,
      ip: ctx.ip ?? null,
    },
    { id, subUid: row.sub_uid },
  );
  try {
    const bytes = new TextEncoder().encode(`${JSON.stringify(record.ivms101, null, 2)}\n`);
    await trail.closeOrThrow("success", sealOf(bytes));
    return { name: `withdrawal_${id.slice(0, 8)}_ivms101.json`, bytes };
  } catch (e) {
    await trail.close("failure", failureDetail(e));
    throw e;
  }
}
