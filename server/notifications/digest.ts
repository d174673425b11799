import "server-only";
// When a person's next daily digest is due: their time of day (HH:MM) in their time zone (IANA), 08:00 UTC unless
// they chose. Computed with Intl, so daylight saving time moves the UTC instant, not the local time.

export type DigestSetting = { digestAt: string; timeZone: string };

/** The offset of a time zone from UTC at an instant, in ms (local = UTC + offset). */
function offsetMs(timeZone: string, at: Date): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(at);
  const n = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  const local = Date.UTC(n("year"), n("month") - 1, n("day"), n("hour"), n("minute"), n("second"));
  return local - Math.floor(at.getTime() / 1000) * 1000;
}

export function nextDigestAt(setting: DigestSetting | undefined, now: Date): Date {
  const { digestAt, timeZone } = setting ?? { digestAt: "08:00", timeZone: "UTC" };
  const [h, m] = digestAt.split(":").map(Number) as [number, number];
  const zone = safeZone(timeZone);
  const localNow = new Date(now.getTime() + offsetMs(zone, now));
  for (let day = 0; day < 3; day++) {
    const localTarget = Date.UTC(localNow.getUTCFullYear(), localNow.getUTCMonth(), localNow.getUTCDate() + day, h, m);
    // The instant whose local time is the target: the offset read at the guess, then once more at the result.
    let at = localTarget - offsetMs(zone, new Date(localTarget));
    at = localTarget - offsetMs(zone, new Date(at));
    if (at > now.getTime()) return new Date(at);
  }
  return new Date(now.getTime() + 86_400_000);
}

function safeZone(timeZone: string): string {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return timeZone;
  } catch {
    return "UTC";
  }
}
