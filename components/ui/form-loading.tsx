/**
 * Stands in for a form whose code loads after the page (next/dynamic, for page weight): it keeps the
 * form's place so the page does not jump, and tells assistive technology what is coming.
 */
export function FormLoading({ title }: { title: string }) {
  return (
    <div
      role="status"
      className={
        "flex min-h-48 items-center justify-center rounded-lg border border-dashed border-slate-300 p-4 " +
        "text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400"
      }
    >
      Loading the form “{title}”…
    </div>
  );
}
