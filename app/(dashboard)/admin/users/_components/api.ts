// The staff page's one display helper; its calls go through lib/api's user resources.

/** "YYYY-MM-DD HH:mm UTC", the one time format of the staff pages. */
export function formatUtc(iso: string | null): string {
  if (!iso) return "never";
  const d = new Date(iso).toISOString();
  return `${d.slice(0, 10)} ${d.slice(11, 16)} UTC`;
}
