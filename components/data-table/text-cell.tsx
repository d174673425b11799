// A text field the platform may send empty: shown as a muted dash so an empty cell reads as "none sent".
export function orDash(v: string) {
  return v ? v : <span className="text-slate-500 dark:text-slate-400">—</span>;
}
