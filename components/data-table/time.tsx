"use client";
// Times are shown in UTC (the platform's and the audit log's zone) with a toggle to the browser's
// local time. The choice is a display preference for the page, so it lives in context, not the URL.
import { createContext, useContext, useState, type ReactNode } from "react";
import { formatLocal, formatUtc } from "@/lib/format";

export type TimeZoneMode = "utc" | "local";

const TimeZoneContext = createContext<{ mode: TimeZoneMode; setMode: (m: TimeZoneMode) => void }>({
  mode: "utc",
  setMode: () => {},
});

export function TimeZoneProvider({ children }: { children: ReactNode }) {
  const [mode, setMode] = useState<TimeZoneMode>("utc");
  return <TimeZoneContext value={{ mode, setMode }}>{children}</TimeZoneContext>;
}

export function useTimeZone() {
  return useContext(TimeZoneContext);
}

export function formatTime(ms: string | number, mode: TimeZoneMode): string {
  return mode === "utc" ? formatUtc(ms) : formatLocal(ms);
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
  return (
    <button
      type="button"
      aria-pressed={mode === "local"}
      onClick={() => setMode(mode === "utc" ? "local" : "utc")}
      className="rounded-md border border-slate-300 px-2 py-1.5 text-xs font-semibold hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
    >
      Local time
    </button>
  );
}
