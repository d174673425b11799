// Shared control styles of the data table and the read pages (light and dark).
export const controlClass =
  "block rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";
export const labelClass = "text-xs font-medium text-slate-700 dark:text-slate-300";
const button =
  "inline-flex items-center gap-1 rounded-md px-3 py-1.5 text-sm font-semibold disabled:cursor-not-allowed disabled:opacity-50";
export const primaryButton = `${button} bg-blue-700 text-white hover:bg-blue-800`;
export const secondaryButton = `${button} border border-slate-300 bg-white text-slate-900 hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800`;
