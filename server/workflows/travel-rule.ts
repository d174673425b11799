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
  vaspPerson,
  type IdentityPayload,
  type Ivms101Person,
} from "@/lib/ivms101";
import { openAudit, sealOf } from "@/server/audit";
import { travelRuleNameMatches, type NameMatch, type ScreenedName } from "@/server/screening/names";
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

/** Every name identifier of a person: a natural person's primary and secondary identifiers, a legal person's name. */
function namesOf(role: ScreenedName["role"], person: Ivms101Person): ScreenedName[] {
  const natural = person.naturalPerson?.name.nameIdentifier ?? [];
  const legal = person.legalPerson?.name.nameIdentifier ?? [];
  return [
    ...natural.map(({ primaryIdentifier: p, secondaryIdentifier: s }) => ({
      role,
      name: s ? `${p}, ${s}` : p,
      spellings: s ? [`${s} ${p}`, `${p} ${s}`, `${p}, ${s}`] : [p],
    })),
    ...legal.map(({ legalPersonName: n }) => ({ role, name: n, spellings: [n] })),
  ];
}

/**
 * The names a request's Travel Rule data carries (every name identifier of the originator and beneficiary persons,
 * the beneficiary's VASP), for screening against the sanctions lists' party names (server/screening/names.ts
 * matches them, exact and normalised). Nothing here decides a match.
 */
export function travelRuleNamesForScreening(record: TravelRuleRecord): ScreenedName[] {
  const p = record.ivms101;
  const all = [
    ...p.originator.originatorPersons.flatMap((x) => namesOf("originator", x)),
    ...p.beneficiary.beneficiaryPersons.flatMap((x) => namesOf("beneficiary", x)),
    ...(p.beneficiaryVASP ? namesOf("beneficiaryVASP", p.beneficiaryVASP.beneficiaryVASP) : []),
  ];
  // One row per role and name: a person named twice alike (LEGL and ALIA) is screened once.
  const byKey = new Map(all.filter((n) => n.name.trim()).map((n) => [`${n.role}\u0000${n.name}`, n]));
  return [...byKey.values()];
}

/**
 * The request's names that match a listed party's, against the lists' active versions (the route gives it to
 * monitoring.read only: compliance's lead, never the desk's). A request that does not exist is not_found.
 */
export async function withdrawalNameMatches(db: Queryable, id: string): Promise<{ items: NameMatch[] }> {
  await loadRow(db, id);
  return { items: await travelRuleNameMatches(db, id) };
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
