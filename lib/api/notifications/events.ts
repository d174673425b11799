// The catalog of notification events, as data: each type's payload schema, the permission a reader needs, and what
// the bell says of it and where it links, per reader. The events themselves are written by the database, in the
// transaction of what caused them (migration 0130's triggers); the payload is parsed here when it is read, so a
// payload that does not match its type is never shown. What a text says stays within what its reader may read: a
// held request says "held by compliance" and nothing more, to anyone (lib/api/audit/confidential.ts).
import * as z from "zod/mini";
import "@/lib/zod-english";
import { can, type Permission, type Role } from "@/lib/rbac";

const id = z.string();
const withdrawal = {
  withdrawalId: id,
  subUid: z.string(),
  coin: z.string(),
  amount: z.string(),
  requestedBy: z.string(),
};

export const EVENT_SCHEMAS = {
  "withdrawal.awaiting_approval": z.object(withdrawal),
  "withdrawal.decided": z.object({
    ...withdrawal,
    state: z.enum(["approved", "rejected", "confirmed", "failed", "unknown"]),
  }),
  "withdrawal.held": z.object({ withdrawalId: id, subUid: z.string() }),
  /** An approval nobody acted on in NOTIFY_ESCALATE_AFTER_MINUTES: to every lead, then (twice as long) to admin. */
  "withdrawal.escalated": z.object({
    ...withdrawal,
    to: z.enum(["lead", "admin"]),
    waitingMinutes: z.number(),
  }),
  "alert.high": z.object({ alertId: id, subUid: z.string(), rule: z.nullable(z.string()), holds: z.boolean() }),
  "case.assigned": z.object({ caseId: id, subUid: z.string() }),
  "case.overdue": z.object({ caseId: id, subUid: z.string(), dueAt: z.string() }),
  "control.awaiting_second_person": z.object({
    what: z.enum([
      "rule_version",
      "rule_retirement",
      "snooze",
      "sanctions_release",
      "policy",
      "list_version",
      "leverage_change",
      "leverage_plan",
      "leverage_policy",
      "subaccount_key",
      "webhook",
    ]),
    id,
    by: z.string(),
  }),
  "sync.behind": z.object({ minutes: z.number(), since: z.string() }),
  "platform.down": z.object({ code: z.string(), message: z.string(), since: z.string() }),
  "audit.chain_broken": z.object({ at: z.string() }),
} as const;

export type EventType = keyof typeof EVENT_SCHEMAS;
/** Types the catalog declares that nothing raises yet: not offered as choices (none today). */
export const NOT_YET_RAISED: ReadonlySet<EventType> = new Set<EventType>([]);
export const EVENT_TYPES = Object.keys(EVENT_SCHEMAS) as [EventType, ...EventType[]];
export type EventPayload<T extends EventType = EventType> = z.output<(typeof EVENT_SCHEMAS)[T]>;

/**
 * What a reader needs to read an event of the type at all (its audience's own permission comes on top); a decision
 * waiting for a second person needs that decision's own (SECOND_PERSON_PERMISSION).
 */
export const EVENT_PERMISSION: Record<Exclude<EventType, "control.awaiting_second_person">, Permission> = {
  "withdrawal.awaiting_approval": "withdrawals.approve",
  "withdrawal.decided": "withdrawals.read",
  "withdrawal.held": "withdrawals.read",
  "withdrawal.escalated": "withdrawals.read",
  "alert.high": "monitoring.read",
  "case.assigned": "monitoring.read",
  "case.overdue": "monitoring.read",
  "sync.behind": "audit.read",
  "platform.down": "audit.read",
  "audit.chain_broken": "audit.read",
};

export const EVENT_TITLES: Record<EventType, string> = {
  "withdrawal.awaiting_approval": "A withdrawal waits for your approval",
  "withdrawal.decided": "Your withdrawal request was decided",
  "withdrawal.held": "A withdrawal request is held",
  "withdrawal.escalated": "A withdrawal has waited too long for approval",
  "alert.high": "A high-severity alert",
  "case.assigned": "A case was assigned to you",
  "case.overdue": "A case passed its review deadline",
  "control.awaiting_second_person": "A decision waits for a second person",
  "sync.behind": "The ledger's sync is behind",
  "platform.down": "The platform is failing",
  "audit.chain_broken": "The audit chain does not verify",
};

const STATE_WORDS = {
  approved: "approved",
  rejected: "rejected",
  confirmed: "sent (confirmed by the platform)",
  failed: "refused by the platform",
  unknown: "sent, outcome unknown (reconcile it)",
} as const;

const SECOND_PERSON: Record<EventPayload<"control.awaiting_second_person">["what"], [string, (id: string) => string]> =
  {
    rule_version: ["A monitoring rule version waits for activation", () => "/alerts/rules"],
    rule_retirement: ["A rule's retirement waits for confirmation", () => "/alerts/rules"],
    snooze: ["A snooze of a holding rule waits for approval", () => "/alerts/rules"],
    sanctions_release: ["A sanctions match's release waits for confirmation", () => "/alerts"],
    policy: ["A money-out policy draft waits for publication", () => "/policy"],
    list_version: ["A screening list version waits for confirmation", () => "/screening"],
    leverage_change: ["A leverage change waits for a second lead", () => "/leverage"],
    leverage_plan: ["A leverage plan waits for a second lead", () => "/leverage/plans"],
    leverage_policy: ["A leverage policy draft waits for publication", () => "/policy/leverage"],
    subaccount_key: ["A sub-account API key waits for a second admin", () => "/admin/keys"],
    webhook: ["A webhook endpoint waits for a second admin", () => "/admin/webhooks"],
  };
/** Which permission the second person needs, per decision (the audience's own, repeated for the reader check). */
export const SECOND_PERSON_PERMISSION: Record<EventPayload<"control.awaiting_second_person">["what"], Permission> = {
  rule_version: "monitoring.approve",
  rule_retirement: "monitoring.approve",
  snooze: "monitoring.approve",
  sanctions_release: "monitoring.approve",
  policy: "policy.approve",
  list_version: "monitoring.write",
  leverage_change: "leverage.write",
  leverage_plan: "leverage.write",
  leverage_policy: "policy.approve",
  subaccount_key: "subaccountKeys.approve",
  webhook: "webhooks.manage",
};

export type EventText = { title: string; text: string; href: string };

/** What the bell says of an event to a reader of this role, or null when the role may not read it. */
export function describeEvent(type: string, payload: unknown, role: Role): EventText | null {
  if (!(type in EVENT_SCHEMAS)) return null;
  const t = type as EventType;
  const parsed = z.safeParse(EVENT_SCHEMAS[t], payload);
  if (!parsed.success) return null;
  const p = parsed.data as never;
  const needs =
    t === "control.awaiting_second_person"
      ? SECOND_PERSON_PERMISSION[(p as EventPayload<typeof t>).what]
      : EVENT_PERMISSION[t];
  if (!can(role, needs)) return null;
  return { title: EVENT_TITLES[t], ...words(t, p) };
}

function words(t: EventType, p: never): { text: string; href: string } {
  switch (t) {
    case "withdrawal.awaiting_approval": {
      const w = p as EventPayload<typeof t>;
      return {
        text: `${w.amount} ${w.coin} from sub-account ${w.subUid}, requested by ${w.requestedBy}`,
        // The approval queue, where it is decided (the amount and address typed again); its row is there.
        href: "/withdrawals",
      };
    }
    case "withdrawal.decided": {
      const w = p as EventPayload<typeof t>;
      return {
        text: `${w.amount} ${w.coin} from sub-account ${w.subUid}: ${STATE_WORDS[w.state]}`,
        href: `/withdrawals/${w.withdrawalId}`,
      };
    }
    case "withdrawal.held": {
      const w = p as EventPayload<typeof t>;
      return { text: `Sub-account ${w.subUid}: held by compliance`, href: `/withdrawals/${w.withdrawalId}` };
    }
    case "withdrawal.escalated": {
      const w = p as EventPayload<typeof t>;
      return {
        text:
          `${w.amount} ${w.coin} from sub-account ${w.subUid}, requested by ${w.requestedBy}, has waited ` +
          `${w.waitingMinutes} minutes with no approval`,
        href: "/withdrawals",
      };
    }
    case "alert.high": {
      const a = p as EventPayload<typeof t>;
      return {
        text: `${a.rule ?? "A rule"} on sub-account ${a.subUid}${a.holds ? ": its withdrawals are held" : ""}`,
        href: `/alerts?subUid=${encodeURIComponent(a.subUid)}`,
      };
    }
    case "case.assigned":
    case "case.overdue": {
      const c = p as EventPayload<"case.assigned">;
      return { text: `The case of sub-account ${c.subUid}`, href: `/alerts/cases/${c.caseId}` };
    }
    case "control.awaiting_second_person": {
      const c = p as EventPayload<typeof t>;
      const [text, href] = SECOND_PERSON[c.what];
      return { text: `${text} (asked by ${c.by})`, href: href(c.id) };
    }
    case "sync.behind": {
      const s = p as EventPayload<typeof t>;
      return { text: `Behind its schedule by ${s.minutes} minutes`, href: "/sync" };
    }
    case "platform.down": {
      const s = p as EventPayload<typeof t>;
      return { text: `${s.code}: ${s.message}`, href: "/sync" };
    }
    case "audit.chain_broken":
      return { text: "Run npm run audit:verify and look at the first broken entry", href: "/audit" };
  }
}
