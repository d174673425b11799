export const inputClass =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 font-mono text-sm text-slate-900 aria-[invalid=true]:border-red-600 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:aria-[invalid=true]:border-red-400";
export const fieldErrorClass = "mt-1 text-xs text-red-700 dark:text-red-300";
export const hintClass = "mt-1 text-xs text-slate-600 dark:text-slate-400";
