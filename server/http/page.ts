import "server-only";
// The page gate: what apiRoute is for routes, for the dashboard's pages. A page names its entry in the
// page manifest (lib/pages.ts); the gate signs the visitor in (back to the page asked for, path and
// query), checks the page's permission and, when the role may not open it, records the refusal in the
// audit log (as a refused API call is) and says so. It answers data; the pages draw the frame or the
// "not allowed" page from it (app/(dashboard)/_components/page-gate.tsx).
import { randomUUID } from "node:crypto";
import type { Metadata } from "next";
import { headers } from "next/headers";
import { DomainError } from "@/lib/api/errors";
import { PAGES, type PageDef, type PageId } from "@/lib/pages";
import { can, type Permission, type Role } from "@/lib/rbac";
import { REQUEST_PATH_HEADER } from "@/lib/security-headers";
import { requireStaffSession, type StaffSession } from "@/server/auth/session";
import { getDb } from "@/server/db";
import { logger } from "@/server/log";
import { refuse } from "./request";

/** Why the visitor may not open the page: the permission it needs and the role they have. */
export type PageRefusal = { permission: Permission; role: Role };

export type PageGate =
  | { session: StaffSession; page: PageDef; denied: null }
  | { session: StaffSession; page: PageDef; denied: PageRefusal };

export async function openPage(id: PageId): Promise<PageGate> {
  const page: PageDef = PAGES[id];
  const session = await requireStaffSession(page.path);
  if (page.permission === null || can(session.role, page.permission)) return { session, page, denied: null };
  const h = await headers();
  const path = h.get(REQUEST_PATH_HEADER) ?? page.path;
  const ip = h.get("x-forwarded-for")?.split(",")[0]?.trim() || null;
  const reason = new DomainError(
    "forbidden",
    `Your role (${session.role}) may not open ${page.path} (${page.permission})`,
  );
  try {
    await refuse(await getDb(), session, ip, randomUUID(), path.split("?")[0]!, reason);
  } catch (e) {
    logger.error({ err: String(e) }, "audit write of a refused page view failed");
  }
  return { session, page, denied: { permission: page.permission, role: session.role } };
}

/** The page's document title, from the manifest. */
export function pageMetadata(id: PageId): Metadata {
  return { title: PAGES[id].title };
}
