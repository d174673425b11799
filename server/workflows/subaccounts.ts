import "server-only";
import { z } from "zod";
import { env } from "@/lib/env";
import type { Subaccount } from "@/lib/platform/catalog";
import type { Db, Queryable } from "@/server/db";
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

/** Adds an existing sub-account by UID (one created elsewhere); the caller has checked it with E2. */
export async function registerExisting(db: Queryable, subUid: string, label: string | null, actor: string): Promise<RegistryEntry> {
  const { rows } = await db.query<Row>(
    `INSERT INTO subaccounts (sub_uid, label, source, created_by) VALUES ($1, $2, 'added', $3)
     ON CONFLICT (sub_uid) DO NOTHING RETURNING *`,
    [subUid, label, actor],
  );
  if (!rows[0]) throw new Error(`sub-account ${subUid} is already in the registry`);
  return toEntry(rows[0]);
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
