// The control styles of every form, table toolbar and dialog (light and dark): one place, so a button is a
// button everywhere. Components: components/ui/form.tsx (a labelled field, server errors onto fields).
export const controlClass =
  "block rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900 " +
  "aria-[invalid=true]:border-red-600 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 " +
  "dark:aria-[invalid=true]:border-red-400";
/** A form's text input or select: full width of its field. */
export const inputClass = `${controlClass} w-full`;
/** For values read character by character (addresses, UIDs, amounts). */
export const monoInputClass = `${inputClass} font-mono`;
export const labelClass = "text-xs font-medium text-slate-700 dark:text-slate-300";
const BUTTON_TONES = {
  primary: "bg-blue-700 text-white hover:bg-blue-800",
  secondary:
    "border border-slate-300 bg-white text-slate-900 hover:bg-slate-100 dark:border-slate-600 " +
    "dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800",
  danger: "bg-red-700 text-white hover:bg-red-800",
} as const;
const BUTTON_SIZES = { sm: "px-2.5 py-1", md: "px-3 py-1.5", lg: "px-4 py-2" } as const;
/** A button: its tone, and its size ("sm" in a table's row or a small dialog, "lg" on the sign-in pages). */
export const buttonClass = (tone: keyof typeof BUTTON_TONES, size: keyof typeof BUTTON_SIZES = "md") =>
  `inline-flex items-center justify-center gap-1 rounded-md ${BUTTON_SIZES[size]} text-sm font-semibold ` +
  `disabled:cursor-not-allowed disabled:opacity-50 ${BUTTON_TONES[tone]}`;
export const primaryButton = buttonClass("primary");
export const secondaryButton = buttonClass("secondary");
export const dangerButton = buttonClass("danger");
const NOTICE_TONES = {
  ok:
    "border-emerald-300 bg-emerald-50 text-emerald-950 dark:border-emerald-700 dark:bg-emerald-950 " +
    "dark:text-emerald-100",
  warn: "border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100",
  error: "border-red-300 bg-red-50 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100",
} as const;
export type NoticeTone = keyof typeof NOTICE_TONES;
const NOTICE_PADS = { sm: "px-3 py-2", md: "p-3", lg: "p-4" } as const;
/** A toned box: what was done (ok), what needs care (warn), what failed (error); "lg" for a page's own state. */
export const noticeClass = (tone: NoticeTone, pad: keyof typeof NOTICE_PADS = "sm") =>
  `rounded-md border text-sm ${NOTICE_PADS[pad]} ${NOTICE_TONES[tone]}`;
export const fieldErrorClass = "text-xs text-red-700 dark:text-red-300";
export const hintClass = "text-xs text-slate-600 dark:text-slate-400";
