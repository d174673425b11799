"use client";
// Times are shown in UTC (the platform's and the audit log's zone) with a toggle to the browser's local
// time. The choice is the person's, not the page's: it is kept in this browser (localStorage) and every
// table, time cell and date filter of every page reads the same one, so a filter typed in local time is
// read in local time, and the choice survives moving between pages. Another tab follows it too.
import { useSyncExternalStore } from "react";
import { endOfMinute, formatLocal, formatUtc } from "@/lib/format";
import { storedChoices } from "@/lib/client/stored-choice";
import { Field } from "./field";
import { controlClass } from "@/components/ui/styles";
import { useEarlyChange } from "@/components/ui/early-change";
import type { CellValue } from "./column-builders";

export type TimeZoneMode = "utc" | "local";

const STORAGE_KEY = "brokerdesk.time-zone";
const store = storedChoices();
let fallback: TimeZoneMode | null = null;

const readMode = (): TimeZoneMode => (store.read(STORAGE_KEY) === "local" ? "local" : "utc");

function setMode(mode: TimeZoneMode): void {
  // Storage refused (private mode, quota): the choice then lasts as long as the page.
  store.write(STORAGE_KEY, mode, () => (fallback = mode));
}

/** The server renders UTC; the browser switches to the stored choice once hydrated. */
export function useTimeZone(): { mode: TimeZoneMode; setMode: (m: TimeZoneMode) => void } {
  const mode = useSyncExternalStore(
    store.subscribe,
    () => fallback ?? readMode(),
    () => "utc" as const,
  );
  return { mode, setMode };
}

export function formatTime(ms: string | number, mode: TimeZoneMode): string {
  return mode === "utc" ? formatUtc(ms) : formatLocal(ms);
}

/** "UTC+01:00" for the browser's zone now. */
export function localOffset(at = Date.now()): string {
  const offset = -new Date(at).getTimezoneOffset();
  const abs = Math.abs(offset);
  const hh = String(Math.floor(abs / 60)).padStart(2, "0");
  const mm = String(abs % 60).padStart(2, "0");
  return `UTC${offset >= 0 ? "+" : "-"}${hh}:${mm}`;
}

/** How a label names the zone in force: "UTC", or "local, UTC+01:00". */
export function zoneLabel(mode: TimeZoneMode): string {
  return mode === "utc" ? "UTC" : `local, ${localOffset()}`;
}

/** What a page's times are in, as the person chose (the header's toggle): said beside what the page is for. */
export function TimesSaid() {
  const { mode } = useTimeZone();
  return <>{mode === "utc" ? "Times are in UTC." : `Times are in your local time (${localOffset()}).`}</>;
}

/** An ISO 8601 time (Brokerdesk's own rows) shown as TimeCell shows a platform time: in the chosen zone, said. */
export function IsoTime({ iso }: { iso: string | null }) {
  return <TimeCell ms={iso ? String(Date.parse(iso)) : ""} />;
}

/** A platform timestamp (ms string). The machine-readable value stays in UTC ISO form. */
export function TimeCell({ ms }: { ms: string }) {
  const { mode } = useTimeZone();
  if (ms === "") return <span className="text-slate-500 dark:text-slate-400">—</span>;
  return (
    <time dateTime={new Date(Number(ms)).toISOString()} className="tabular whitespace-nowrap">
      {formatTime(ms, mode)}
    </time>
  );
}

export function TimeZoneToggle() {
  const { mode, setMode } = useTimeZone();
  const local = mode === "local";
  return (
    <button
      type="button"
      aria-pressed={local}
      onClick={() => setMode(local ? "utc" : "local")}
      title={local ? "Times are in your local time; press for UTC" : "Times are in UTC; press for your local time"}
      className={`rounded-md border px-2 py-1.5 text-xs font-semibold whitespace-nowrap ${
        local
          ? "border-blue-700 bg-blue-700 text-white hover:bg-blue-800 dark:border-blue-400 dark:bg-blue-400 " +
            "dark:text-slate-950"
          : "border-slate-300 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
      }`}
    >
      {local ? <span aria-hidden="true">✓ </span> : null}Local time{local ? ` (${localOffset()})` : ""}
    </button>
  );
}

// datetime-local shows wall time without a zone: read and written in the zone the tables show.
const pad = (n: number) => String(n).padStart(2, "0");
function toInput(ms: number | null, mode: TimeZoneMode): string {
  if (ms === null) return "";
  const d = new Date(ms);
  if (mode === "utc") return d.toISOString().slice(0, 16);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
function fromInput(v: string, mode: TimeZoneMode): number | null {
  // Without a zone, Date.parse reads "YYYY-MM-DDTHH:mm:ss" as local time: what the local mode means.
  const ms = Date.parse(mode === "utc" ? `${v}:00Z` : `${v}:00`);
  return Number.isFinite(ms) ? ms : null;
}

/** A date filter in the zone the tables show, its label saying which ("From (UTC)", "From (local, UTC+01:00)"). */
export function TimeField({
  id,
  label,
  value,
  onChange,
  end = false,
}: {
  id: string;
  label: string;
  value: number | null;
  onChange: (ms: number | null) => void;
  /**
   * The end of a range: the field shows minutes, so the minute typed is taken whole (to its :59.999), and
   * "To 23:59" includes a record at 23:59:30.
   */
  end?: boolean;
}) {
  const { mode } = useTimeZone();
  const choose = (v: string) => {
    const ms = fromInput(v, mode);
    onChange(ms !== null && end ? endOfMinute(ms) : ms);
  };
  const ref = useEarlyChange<HTMLInputElement>(toInput(value, mode), choose);
  return (
    <Field id={id} label={`${label} (${zoneLabel(mode)})`}>
      <input
        ref={ref}
        id={id}
        type="datetime-local"
        className={controlClass}
        value={toInput(value, mode)}
        onChange={(e) => choose(e.target.value)}
      />
    </Field>
  );
}

/** A time (ms as a string), in the table's time zone, sorted by value. */
export const timeColumn = (label: string, width: number) => ({
  header: label,
  meta: { time: true, label, width },
  sortFn: "decimal" as const,
  cell: (c: CellValue<string | null>) => <TimeCell ms={c.getValue() ?? ""} />,
});
