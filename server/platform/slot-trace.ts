import "server-only";
// A per-slot trace of the limiter (opt-in: `new SlidingWindowLimiter({ trace: new SlotTrace() })`; a limiter
// without one records nothing and pays one undefined check per grant): for every slot granted, whose it was
// (staff or background, which operation), when it was granted, when its request left and was answered, when the
// platform saw it, and until when the slot was held after. The benchmark prints `summarizeWalk` for an export's
// walk: who held the operation's slots while it ran, and where they stood idle.
import type { Priority, SlotHold, SlotRecorder } from "./limiter-types";

export type { SlotHold } from "./limiter-types";

export class SlotTrace implements SlotRecorder {
  readonly holds: SlotHold[] = [];

  grant(h: Omit<SlotHold, "grantedAt">): SlotHold {
    const hold: SlotHold = { ...h, grantedAt: Date.now() };
    this.holds.push(hold);
    return hold;
  }

  clear(): void {
    this.holds.length = 0;
  }
}

/**
 * When a walk of `operation` that began at `from` ended: its last answer (the staff calls of the operation granted
 * from then on are the walk's when nothing else of staff calls it). The sync resumes at once after, before the
 * export's own end (its audit seal).
 */
export function walkEndOf(holds: readonly SlotHold[], operation: string, from: number): number {
  let end = from;
  for (const h of holds)
    if (h.operation === operation && h.priority === "staff" && h.grantedAt >= from)
      end = Math.max(end, h.answeredAt ?? end);
  return end;
}

const overlap = (a0: number, a1: number, b0: number, b1: number) => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));

/** What the trace says of the slots of `operation` between `from` and `to` (local ms: an export's walk). */
export function summarizeWalk(
  holds: readonly SlotHold[],
  o: { operation: string; limit: number; from: number; to: number },
) {
  const mine = holds.filter((h) => h.operation === o.operation);
  const span = o.to - o.from;
  // A hold with no answer yet (the trace read mid-call) counts to the walk's end.
  const end = (h: SlotHold) => h.freeAt ?? o.to;
  const held = (p: Priority) =>
    mine.filter((h) => h.priority === p).reduce((s, h) => s + overlap(h.grantedAt, end(h), o.from, o.to), 0);
  const background = mine.filter((h) => h.priority === "background");
  const staff = mine.filter((h) => h.priority === "staff" && h.grantedAt >= o.from && h.grantedAt <= o.to);
  // Each slot's idle time inside the walk: from one hold's end to the next grant of the same slot.
  const bySlot = new Map<string, SlotHold[]>();
  for (const h of mine) {
    const k = `${h.scope}#${h.slot}`;
    bySlot.set(k, [...(bySlot.get(k) ?? []), h]);
  }
  const gaps: number[] = [];
  for (const list of bySlot.values()) {
    list.sort((a, b) => a.grantedAt - b.grantedAt);
    let freeFrom = o.from;
    for (const h of list) {
      const idle = overlap(freeFrom, h.grantedAt, o.from, o.to);
      if (idle > 0) gaps.push(idle);
      freeFrom = Math.max(freeFrom, end(h));
    }
    if (freeFrom < o.to) gaps.push(o.to - Math.max(freeFrom, o.from));
  }
  // Slots never granted inside the window at all stood idle the whole walk.
  for (let i = bySlot.size; i < o.limit; i++) gaps.push(span);
  gaps.sort((a, b) => b - a);
  const sentTimes = staff.map((h) => h.sentAt ?? h.grantedAt).sort((a, b) => a - b);
  let longestStaffSilence = 0;
  for (let i = 1; i < sentTimes.length; i++)
    longestStaffSilence = Math.max(longestStaffSilence, sentTimes[i]! - sentTimes[i - 1]!);
  const s = (ms: number) => Math.round(ms) / 1000;
  return {
    walkS: s(span),
    staffGrants: staff.length,
    staffSlotS: s(held("staff")),
    /** A staff request's slot, from its grant to the end of its hold: a window and the pacing's margins at best. */
    staffHoldMeanMs: staff.length
      ? Math.round(staff.reduce((sum, h) => sum + (end(h) - h.grantedAt), 0) / staff.length)
      : null,
    syncSlotS: s(held("background")),
    idleSlotS: s(gaps.reduce((a, b) => a + b, 0)),
    /** Background calls granted before the walk whose answer had not come when it began. */
    syncInFlightAtStart: background.filter((h) => h.grantedAt <= o.from && (h.answeredAt ?? Infinity) > o.from).length,
    /** Background calls holding a slot (in flight or in the hold after their answer) when it began. */
    syncHeldAtStart: background.filter((h) => h.grantedAt <= o.from && end(h) > o.from).length,
    syncGrantedInWalk: background.filter((h) => h.grantedAt > o.from && h.grantedAt < o.to).length,
    /** From the walk's start to its first request's grant. */
    firstStaffGrantMs: staff.length ? Math.round(Math.min(...staff.map((h) => h.grantedAt)) - o.from) : null,
    longestSlotGapMs: Math.round(gaps[0] ?? 0),
    slotGapsOver50ms: gaps.filter((g) => g > 50).length,
    longestStaffSilenceMs: Math.round(longestStaffSilence),
  };
}
