import "server-only";
// The sub-account registry: the sub-accounts Brokerdesk knows (the platform cannot list them), created here
// (E6), added by UID (checked with E2), or in simulator mode seeded at start-up from the simulator's own.
import type { z } from "zod";
import { DomainError, invalidField } from "@/lib/api/errors";
import type { Subaccount } from "@/lib/platform/catalog";
import type { addSubaccountSchema, createSubaccountSchema } from "@/lib/api/registry";
import type { Db, Queryable } from "@/server/db";
import { logger } from "@/server/log";
import type { PlatformClient } from "@/server/platform/client";
import { PlatformError } from "@/server/platform/errors";

export type RegistryEntry = {
  subUid: string;
  subaccountName: string | null;
  label: string | null;
  status: string;
  permList: string[];
  source: "created" | "added" | "simulator-seed";
  platformCTime: string | null;
  createdBy: string;
  createdAt: string;
};

export type RegistryRow = {
  sub_uid: string;
  subaccount_name: string | null;
  label: string | null;
  status: string;
  perm_list: string[];
  source: RegistryEntry["source"];
  platform_ctime: string | null;
  created_by: string;
  created_at: Date | string;
};

export const toEntry = (r: RegistryRow): RegistryEntry => ({
  subUid: r.sub_uid,
  subaccountName: r.subaccount_name,
  label: r.label,
  status: r.status,
  permList: r.perm_list ?? [],
  source: r.source,
  platformCTime: r.platform_ctime,
  createdBy: r.created_by,
  createdAt: new Date(r.created_at).toISOString(),
});

/** The sub-accounts Brokerdesk knows, oldest first (the first one is the pages' default pick). */
export async function listRegistry(db: Queryable): Promise<RegistryEntry[]> {
  const { rows } = await db.query<RegistryRow>(
    "SELECT * FROM subaccounts ORDER BY platform_ctime ASC NULLS LAST, created_at ASC, sub_uid ASC",
  );
  return rows.map(toEntry);
}

export async function getRegistryEntry(db: Queryable, subUid: string): Promise<RegistryEntry | null> {
  const { rows } = await db.query<RegistryRow>("SELECT * FROM subaccounts WHERE sub_uid = $1", [subUid]);
  return rows[0] ? toEntry(rows[0]) : null;
}

/** One entry, or a 404 that says why (not a UID at all, or not in the registry). */
export async function findRegistryEntry(db: Queryable, subUid: string): Promise<{ entry: RegistryEntry }> {
  if (!/^\d{1,32}$/.test(subUid)) throw new DomainError("not_found", `"${subUid}" is not a sub-account UID`);
  const entry = await getRegistryEntry(db, subUid);
  if (!entry) throw new DomainError("not_found", `Sub-account ${subUid} is not in Brokerdesk's registry`);
  return { entry };
}

/** Records a sub-account the platform just created (E6) in the registry. */
export async function registerCreated(db: Queryable, sub: Subaccount, actor: string): Promise<RegistryEntry> {
  const { rows } = await db.query<RegistryRow>(
    `INSERT INTO subaccounts (sub_uid, subaccount_name, label, status, perm_list, source, platform_ctime, created_by)
     VALUES ($1, $2, $3, $4, $5, 'created', $6, $7)
     ON CONFLICT (sub_uid) DO UPDATE SET subaccount_name = EXCLUDED.subaccount_name, label = EXCLUDED.label,
       status = EXCLUDED.status, perm_list = EXCLUDED.perm_list, platform_ctime = EXCLUDED.platform_ctime
     RETURNING *`,
    [sub.subUid, sub.subaccountName, sub.label || null, sub.status, sub.permList, sub.cTime || null, actor],
  );
  return toEntry(rows[0]!);
}

/**
 * Adds an existing sub-account by UID (one created elsewhere); the caller has checked it with E2.
 * A UID already in the registry is a 409.
 */
export async function registerExisting(
  db: Queryable,
  subUid: string,
  label: string | null,
  actor: string,
): Promise<RegistryEntry> {
  const { rows } = await db.query<RegistryRow>(
    `INSERT INTO subaccounts (sub_uid, label, source, created_by) VALUES ($1, $2, 'added', $3)
     ON CONFLICT (sub_uid) DO NOTHING RETURNING *`,
    [subUid, label, actor],
  );
  if (!rows[0]) throw alreadyRegistered(subUid);
  return toEntry(rows[0]);
}

const alreadyRegistered = (subUid: string) =>
  new DomainError("already_registered", `Sub-account ${subUid} is already in the registry`, {
    subUid: [`Sub-account ${subUid} is already in the registry`],
  });

/** A browser request should not queue long behind E6's one-per-second budget: past this it gets 429. */
const QUEUE_DEADLINE_MS = 10_000;

type CreateInput = z.output<typeof createSubaccountSchema>;
type AddInput = z.output<typeof addSubaccountSchema>;

/**
 * The platform's uniqueness rules (docs/platform-facts.md, E6): a name is unique on the platform whatever
 * its case, a label unique per broker. What the registry knows is refused here, naming the field, before
 * anything is sent; the platform still has the last word on names Brokerdesk never saw.
 */
async function refuseTaken(db: Queryable, input: CreateInput): Promise<void> {
  const { rows } = await db.query<{ sub_uid: string; subaccount_name: string | null; label: string | null }>(
    `SELECT sub_uid, subaccount_name, label FROM subaccounts
      WHERE lower(subaccount_name) = lower($1) OR ($2::text <> '' AND label = $2) LIMIT 2`,
    [input.subaccountName, input.label ?? ""],
  );
  const named = rows.find((r) => r.subaccount_name?.toLowerCase() === input.subaccountName.toLowerCase());
  if (named)
    throw invalidField(
      "subaccountName",
      `A sub-account named ${named.subaccount_name} already exists (UID ${named.sub_uid}): names are unique ` +
        `on the platform`,
    );
  const labelled = rows.find((r) => input.label && r.label === input.label);
  if (labelled)
    throw invalidField(
      "label",
      `Sub-account ${labelled.sub_uid} already has the label "${input.label}": labels are unique per broker`,
    );
}

/**
 * E6 answers a name or label already taken with 40020 "Parameter subaccountName error" (docs/platform-facts.md,
 * E6); the format was checked before sending, so that is what it means, said on the field.
 */
function takenOnPlatform(e: unknown, input: CreateInput): DomainError | null {
  if (!(e instanceof PlatformError) || e.code !== "40020") return null;
  const said = `(platform ${e.code}: ${e.msg})`;
  if (/subaccountName/.test(e.msg))
    return invalidField(
      "subaccountName",
      `The platform already has a sub-account named ${input.subaccountName}: names are unique on the ` +
        `platform, whatever their case ${said}`,
    );
  if (/label/.test(e.msg))
    return invalidField(
      "label",
      `Another sub-account of the broker already has the label "${input.label ?? ""}" ${said}`,
    );
  return null;
}

/**
 * E6, then the registry. The route has written the audit intent before this runs (fail-closed). If the
 * platform created the account but the registry write fails, the UID is logged so it can be added by UID.
 */
export async function createSubaccount(
  db: Db,
  client: PlatformClient,
  input: CreateInput,
  actor: string,
  signal?: AbortSignal,
): Promise<{ entry: RegistryEntry }> {
  await refuseTaken(db, input);
  // An empty label is no label: the platform is not sent one it might read as a value.
  const request = { subaccountName: input.subaccountName, ...(input.label ? { label: input.label } : {}) };
  const { data } = await client
    .call("subaccounts.create", request, { queueDeadlineMs: QUEUE_DEADLINE_MS, signal })
    .catch((e: unknown) => {
      throw takenOnPlatform(e, input) ?? e;
    });
  try {
    return { entry: await registerCreated(db, data, actor) };
  } catch (e) {
    logger.error(
      { err: String(e), subUid: data.subUid },
      "sub-account created on the platform but not recorded; add it by UID",
    );
    throw e;
  }
}

/**
 * "Add by UID": known already → 409 without asking the platform; then E2 must know the UID (a refusal is
 * a 422 on subUid carrying the platform's code and message); then the registry.
 */
export async function addExistingSubaccount(
  db: Db,
  client: PlatformClient,
  input: AddInput,
  actor: string,
  signal?: AbortSignal,
): Promise<{ entry: RegistryEntry }> {
  if (await getRegistryEntry(db, input.subUid)) throw alreadyRegistered(input.subUid);
  try {
    await client.call(
      "subaccounts.assets",
      { subUid: input.subUid, assetType: "all" },
      { queueDeadlineMs: QUEUE_DEADLINE_MS, signal },
    );
  } catch (e) {
    // Only a refusal says "not yours / unknown"; an outage or a rate limit must stay what it is.
    if (e instanceof PlatformError && e.httpStatus < 500 && e.httpStatus !== 429) {
      throw invalidField("subUid", `The platform does not know this sub-account: ${e.code} ${e.msg}`);
    }
    throw e;
  }
  return { entry: await registerExisting(db, input.subUid, input.label ?? null, actor) };
}

/** The seeded desk's made-up holder: a legal person "<name> Ltd (simulated)", registered in MT. */
const SEED_HOLDER = `jsonb_build_object('legalPerson', jsonb_build_object(
  'name', jsonb_build_object('nameIdentifier', jsonb_build_array(jsonb_build_object(
    'legalPersonName', n || ' Ltd (simulated)', 'legalPersonNameIdentifierType', 'LEGL'))),
  'countryOfRegistration', 'MT'))`;

/** A sub-account as the simulator lists it (GET /__sim/subaccounts), for seeding the registry. */
export type SeedSubaccount = {
  subUid: string;
  subaccountName: string;
  label: string;
  status: string;
  permList: string[];
  cTime: string;
};

/**
 * Simulator mode: the registry starts with the simulator's sub-accounts. Idempotent (kept rows are kept). Each
 * seeded desk's holder is a made-up legal person named after it (the Travel Rule's originator of its
 * withdrawals), so the demo's on-chain withdrawals can be requested; a real registry's holders are recorded by
 * brokers.
 */
export async function seedRegistry(db: Db, items: readonly SeedSubaccount[]): Promise<number> {
  // A few statements of many rows each, not one per sub-account: SIM_SUBACCOUNTS may be 100,000.
  const CHUNK = 5_000;
  return db.transaction(async (tx) => {
    let added = 0;
    for (let i = 0; i < items.length; i += CHUNK) {
      const part = items.slice(i, i + CHUNK);
      const { rows } = await tx.query(
        `INSERT INTO subaccounts (sub_uid, subaccount_name, label, status, perm_list, source, platform_ctime,
           created_by, holder)
         SELECT u, n, NULLIF(l, ''), st, COALESCE(string_to_array(NULLIF(p, ''), ','), '{}'), 'simulator-seed', c,
           'system', ${SEED_HOLDER}
           FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS t(u, n, l, st, p, c)
         ON CONFLICT DO NOTHING RETURNING sub_uid`,
        [
          part.map((s) => s.subUid),
          part.map((s) => s.subaccountName),
          part.map((s) => s.label ?? ""),
          part.map((s) => s.status),
          part.map((s) => s.permList.join(",")),
          part.map((s) => s.cTime),
        ],
      );
      added += rows.length;
    }
    return added;
  });
}
