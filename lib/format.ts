// Display formats shared by the staff pages. Amounts stay strings from the platform to the screen
// (STYLE rule 8): grouping works on the digits, never through a float, so nothing is ever rounded.

const PLAIN_DECIMAL = /^([+-]?)(\d+)(\.\d+)?$/;

/**
 * Groups the integer part of a decimal string in thousands: "1234567.000100" → "1,234,567.000100".
 * The fraction is kept exactly as sent (trailing zeros included). Anything that is not a plain
 * decimal (empty, "NaN", exponent form) is returned unchanged rather than guessed at.
 */
export function groupDecimal(value: string): string {
  const m = PLAIN_DECIMAL.exec(value.trim());
  if (!m) return value;
  const [, sign = "", int = "", frac = ""] = m;
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign === "+" ? "" : sign}${grouped}${frac}`;
}

/** A count and its noun: "1 row", "1,000 rows", "2 matches" (`many` where adding "s" is wrong). */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** Milliseconds (number or the platform's ms string) → "YYYY-MM-DD HH:mm:ss UTC"; "" for no time. */
export function formatUtc(ms: number | string): string {
  const d = toDate(ms);
  if (!d) return "";
  return `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 19)} UTC`;
}

/** The same instant in the browser's zone, with its offset so a pasted value is never ambiguous. */
export function formatLocal(ms: number | string): string {
  const d = toDate(ms);
  if (!d) return "";
  const offset = -d.getTimezoneOffset();
  const sign = offset >= 0 ? "+" : "-";
  const abs = Math.abs(offset);
  return (
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ` +
    `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())} ` +
    `UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}

/** "YYYY-MM-DD HH:mm" in UTC, for range descriptions where seconds are noise. */
/** A length of time in the largest unit that keeps it short: "24 h", "90 min", "3.6 s". */
export function formatDuration(ms: number): string {
  const round = (n: number) => String(+n.toFixed(1));
  if (ms >= 3_600_000 && ms % 60_000 === 0 && (ms / 3_600_000) % 0.5 === 0) return `${round(ms / 3_600_000)} h`;
  if (ms >= 60_000) return `${round(ms / 60_000)} min`;
  return `${round(ms / 1000)} s`;
}

export function formatUtcMinutes(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

/** Milliseconds (a number or the platform's digit string), or an ISO 8601 time as Brokerdesk's own routes answer. */
function toDate(ms: number | string): Date | null {
  if (ms === "") return null;
  const n = typeof ms === "number" ? ms : Number(ms);
  if (Number.isFinite(n)) return new Date(n);
  const parsed = typeof ms === "string" && /^\d{4}-\d{2}-\d{2}T/.test(ms) ? Date.parse(ms) : NaN;
  return Number.isFinite(parsed) ? new Date(parsed) : null;
}

/** The last millisecond of the minute `ms` falls in: a range's end typed to the minute covers that whole minute. */
export const endOfMinute = (ms: number): number => Math.floor(ms / 60_000) * 60_000 + 59_999;
