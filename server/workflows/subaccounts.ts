import "server-only";
import { z } from "zod";
import { env } from "@/lib/env";
import type { Subaccount } from "@/lib/platform/catalog";
import type { addSubaccountSchema, createSubaccountSchema } from "@/lib/api/sub-accounts";
import type { Db, Queryable } from "@/server/db";
import { HttpError } from "@/server/http/errors";
import { logger } from "@/server/log";
import type { PlatformClient } from "@/server/platform/client";
import { PlatformError } from "@/server/platform/errors";
import { getPlatform } from "@/server/platform/runtime";

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

type Row = {
  sub_uid: string; subaccount_name: string | null; label: string | null; status: string; perm_list: string[];
  source: RegistryEntry["source"]; platform_ctime: string | null; created_by: string; created_at: Date | string;
};

const toEntry = (r: Row): RegistryEntry => ({
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
export async function listRegistry(db: Db): Promise<RegistryEntry[]> {
  await seedFromSimulatorOnce(db);
  const { rows } = await db.query<Row>(
    "SELECT * FROM subaccounts ORDER BY platform_ctime ASC NULLS LAST, created_at ASC, sub_uid ASC",
  );
  return rows.map(toEntry);
}

export async function getRegistryEntry(db: Queryable, subUid: string): Promise<RegistryEntry | null> {
  const { rows } = await db.query<Row>("SELECT * FROM subaccounts WHERE sub_uid = $1", [subUid]);
  return rows[0] ? toEntry(rows[0]) : null;
}

/** Records a sub-account the platform just created (E6) in the registry. */
export async function registerCreated(db: Queryable, sub: Subaccount, actor: string): Promise<RegistryEntry> {
  const { rows } = await db.query<Row>(
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
 * A UID already in the registry is a 409 (an HttpError, so the one error map sends it as such).
 */
export async function registerExisting(db: Queryable, subUid: string, label: string | null, actor: string): Promise<RegistryEntry> {
  const { rows } = await db.query<Row>(
    `INSERT INTO subaccounts (sub_uid, label, source, created_by) VALUES ($1, $2, 'added', $3)
     ON CONFLICT (sub_uid) DO NOTHING RETURNING *`,
    [subUid, label, actor],
  );
  if (!rows[0]) throw alreadyRegistered(subUid);
  return toEntry(rows[0]);
}

const alreadyRegistered = (subUid: string) =>
  new HttpError(409, "already_registered", `Sub-account ${subUid} is already in the registry`, {
    subUid: [`Sub-account ${subUid} is already in the registry`],
  });

/** A browser request should not queue long behind E6's one-per-second budget: past this it gets 429. */
const QUEUE_DEADLINE_MS = 10_000;

type CreateInput = z.output<typeof createSubaccountSchema>;
type AddInput = z.output<typeof addSubaccountSchema>;

/**
 * E6, then the registry. The route has written the audit intent before this runs (fail-closed). If the
 * platform created the account but the registry write fails, the UID is logged so it can be added by UID.
 */
export async function createSubaccount(
  db: Db, client: PlatformClient, input: CreateInput, actor: string, signal?: AbortSignal,
): Promise<{ entry: RegistryEntry }> {
  await seedFromSimulatorOnce(db);
  // An empty label is no label: the platform is not sent one it might read as a value.
  const request = { subaccountName: input.subaccountName, ...(input.label ? { label: input.label } : {}) };
  const { data } = await client.call("subaccounts.create", request, { queueDeadlineMs: QUEUE_DEADLINE_MS, signal });
  try {
    return { entry: await registerCreated(db, data, actor) };
  } catch (e) {
    logger.error({ err: String(e), subUid: data.subUid }, "sub-account created on the platform but not recorded; add it by UID");
    throw e;
  }
}

/**
 * "Add by UID": known already → 409 without asking the platform; then E2 must know the UID (a refusal is
 * a 422 on subUid carrying the platform's code and message); then the registry.
 */
export async function addExistingSubaccount(
  db: Db, client: PlatformClient, input: AddInput, actor: string, signal?: AbortSignal,
): Promise<{ entry: RegistryEntry }> {
  await seedFromSimulatorOnce(db);
  if (await getRegistryEntry(db, input.subUid)) throw alreadyRegistered(input.subUid);
  try {
    await client.call("subaccounts.assets", { subUid: input.subUid, assetType: "all" }, { queueDeadlineMs: QUEUE_DEADLINE_MS, signal });
  } catch (e) {
    // Only a refusal says "not yours / unknown"; an outage or a rate limit must stay what it is.
    if (e instanceof PlatformError && e.httpStatus < 500 && e.httpStatus !== 429) {
      const message = `The platform does not know this sub-account: ${e.code} ${e.msg}`;
      throw new HttpError(422, "invalid_input", message, { subUid: [message] });
    }
    throw e;
  }
  return { entry: await registerExisting(db, input.subUid, input.label ?? null, actor) };
}

const simListSchema = z.object({
  items: z.array(
    z.object({
      subUid: z.string(), subaccountName: z.string(), label: z.string(), status: z.string(),
      permList: z.array(z.string()), cTime: z.string(),
    }),
  ),
});

const g = globalThis as typeof globalThis & { __brokerdeskRegistrySeeded?: Promise<void> };

/** For readers of one entry: in simulator mode the registry is filled on first use, whoever comes first. */
export function ensureRegistrySeeded(db: Db): Promise<void> {
  return seedFromSimulatorOnce(db);
}

/** In simulator mode the registry starts with the simulator's sub-accounts (the platform cannot list them). */
function seedFromSimulatorOnce(db: Db): Promise<void> {
  if (env.mode !== "simulator") return Promise.resolve();
  g.__brokerdeskRegistrySeeded ??= (async () => {
    const { baseUrl } = await getPlatform();
    const res = await fetch(new URL("__sim/subaccounts", baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`));
    if (!res.ok) throw new Error(`simulator sub-account list answered HTTP ${res.status}`);
    const { items } = simListSchema.parse(await res.json());
    await db.transaction(async (tx) => {
      for (const s of items) {
        await tx.query(
          `INSERT INTO subaccounts (sub_uid, subaccount_name, label, status, perm_list, source, platform_ctime, created_by)
           VALUES ($1, $2, $3, $4, $5, 'simulator-seed', $6, 'system') ON CONFLICT DO NOTHING`,
          [s.subUid, s.subaccountName, s.label || null, s.status, s.permList, s.cTime],
        );
      }
    });
  })().catch((e: unknown) => {
    g.__brokerdeskRegistrySeeded = undefined;
    throw e;
  });
  return g.__brokerdeskRegistrySeeded;
}
