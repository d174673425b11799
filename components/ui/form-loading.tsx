/**
 * Stands in for a form whose code loads after the page (next/dynamic, for page weight): it keeps the
 * form's place so the page does not jump, and tells assistive technology what is coming. `height` is the form's
 * own (px, as drawn at a desktop width) where it is not the 192 px most forms take.
 */
export function FormLoading({ title, height = 192 }: { title: string; height?: number }) {
  return (
    <div
      role="status"
      style={{ minHeight: height }}
      className={
        "flex min-h-48 items-center justify-center rounded-lg border border-dashed border-slate-300 p-4 " +
        "text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400"
      }
    >
      Loading the form “{title}”…
    </div>
  );
}
