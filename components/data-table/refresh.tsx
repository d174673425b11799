// A list the platform answers whole (E2 assets, E11 OI limits, E7 rebates): asked again by a button,
// its count said under the table, with "refreshing…" while the new answer is on its way.
import type { ReactNode } from "react";
import { secondaryButton } from "./styles";

export function RefreshButton({ query, disabled = false, className = "" }: {
  query: { refetch: () => unknown; isFetching: boolean };
  disabled?: boolean;
  className?: string;
}) {
  return (
    <button type="button" className={`${secondaryButton} ${className}`} onClick={() => void query.refetch()} disabled={disabled || query.isFetching}>
      Refresh
    </button>
  );
}

export function LoadedCount({ refreshing, children }: { refreshing: boolean; children: ReactNode }) {
  return (
    <p className="text-sm text-slate-700 dark:text-slate-300" aria-live="polite">
      {children}
      {refreshing ? " · refreshing…" : ""}
    </p>
  );
}
