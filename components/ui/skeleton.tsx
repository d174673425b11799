// What stands in for text that arrives with a query: lines of the text's own height (text-sm, 20 px each), so
// the text replaces them without moving what is below. Apart from query-view.tsx, so a ledger's table can hold
// its freshness line's place without loading the error views.
export function LineSkeleton({ label, lines = 1 }: { label: string; lines?: number }) {
  return (
    <div aria-busy="true">
      <span className="sr-only">{label}</span>
      {Array.from({ length: lines }, (_, i) => (
        <span key={i} aria-hidden="true" className="block h-5 py-1">
          <span
            className="block h-3 animate-pulse rounded bg-slate-200 dark:bg-slate-700"
            style={{ width: i === lines - 1 && lines > 1 ? "60%" : "100%" }}
          />
        </span>
      ))}
    </div>
  );
}
