// Each person's choices of how they hear of each event, per channel: at once, in a daily digest, or never; and
// the defaults a role starts from (a lead hears of approvals at once; compliance of high alerts at once and of the
// rest in a digest). Isomorphic: the /account form and the server's fan-out read the same table.
import type { Role } from "@/lib/rbac";
import { EVENT_TYPES, type EventType } from "./events";

export const CHANNELS = ["app", "email"] as const;
export type Channel = (typeof CHANNELS)[number];
export const MODES = ["immediate", "digest", "never"] as const;
export type Mode = (typeof MODES)[number];

/** The mode of a type on a channel for a role that chose nothing. The bell shows everything at once. */
export function defaultMode(role: Role, type: EventType, channel: Channel): Mode {
  if (channel === "app") return "immediate";
  if (role === "compliance") return type === "alert.high" || type === "case.assigned" ? "immediate" : "digest";
  return "immediate";
}

export type Audience = { email?: string; permission?: string; roles?: string[]; except?: string };

/**
 * Whether an event's audience names this person (the SQL of server/notifications/inbox.ts says the same): by e-mail,
 * or by a permission their role holds, within the roles it names, never its "except".
 */
export function addressedTo(a: Audience, who: { email: string; role: Role; permissions: readonly string[] }): boolean {
  if (a.permission !== undefined && !who.permissions.includes(a.permission)) return false;
  if (a.email !== undefined) return a.email.toLowerCase() === who.email.toLowerCase();
  if (a.permission === undefined) return false;
  if (a.except !== undefined && a.except.toLowerCase() === who.email.toLowerCase()) return false;
  return a.roles === undefined || a.roles.includes(who.role);
}

export { EVENT_TYPES };
