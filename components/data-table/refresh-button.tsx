// Apart from the whole-list table so that a view with no table (the rebate lookup) asks again without loading
// TanStack Table (page weight).
import { secondaryButton } from "@/components/ui/styles";

export function RefreshButton({
  query,
  disabled = false,
  className = "",
}: {
  query: { refetch: () => unknown; isFetching: boolean };
  disabled?: boolean;
  className?: string;
}) {
  return (
    <button
      type="button"
      className={`${secondaryButton} ${className}`}
      onClick={() => void query.refetch()}
      disabled={disabled || query.isFetching}
    >
      Refresh
    </button>
  );
}
