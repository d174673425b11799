"use client";
// One call to an operation that has no paging (E2, E7, E11) through the proxy. The catalog id heads
// the query key (STYLE rule 4), so a page and the cache speak of the operation by one name; a failure
// stays an error (STYLE rule 9), only a transient one is retried once.
import { useQuery } from "@tanstack/react-query";
import type { OperationId } from "@/lib/platform/catalog";
import { isTransient } from "./api";
import { fetchPlatform } from "./platform";

export function usePlatformQuery<Id extends OperationId>(
  operation: Id,
  params: Record<string, string>,
  options: { enabled?: boolean } = {},
) {
  return useQuery({
    queryKey: [operation, params],
    queryFn: ({ signal }) => fetchPlatform(operation, params, signal),
    enabled: options.enabled ?? true,
    retry: (count, e) => count < 1 && isTransient(e),
  });
}
