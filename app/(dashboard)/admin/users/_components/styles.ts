export const inputClass =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";
export const buttonClass =
  "inline-flex items-center rounded-md px-3 py-1.5 text-sm font-semibold disabled:cursor-not-allowed disabled:opacity-60";
export const primaryButton = `${buttonClass} bg-blue-700 text-white hover:bg-blue-800`;
export const secondaryButton = `${buttonClass} border border-slate-300 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800`;
export const fieldErrorClass = "mt-1 text-xs text-red-700 dark:text-red-300";
