"use client";
// A read of one of Brokerdesk's routes, from its catalog entry (lib/api): the entry's id heads the query key
// (STYLE rule 4) and the reply is parsed with its output schema (callResource). A failure stays an error
// (STYLE rule 9); only a transient one is retried, once, unless the caller says otherwise.
import { useQuery, type QueryKey, type UseQueryOptions } from "@tanstack/react-query";
import { callResource, resourceKey, type CallOptions, type JsonResource, type LazyResource } from "@/lib/api/call";
import type { OutputOf } from "@/lib/api/define-resource";
import { isTransient } from "./api";

type QueryOptions<R extends JsonResource, T> = Omit<UseQueryOptions<OutputOf<R>, Error, T>, "queryKey" | "queryFn"> & {
  /** The key when the page invalidates a group of reads together; the entry's id and the call's values otherwise. */
  queryKey?: QueryKey;
};

export function useResourceQuery<R extends JsonResource, T = OutputOf<R>>(
  resource: R | LazyResource<R>,
  call: Omit<CallOptions<R>, "signal">,
  options: QueryOptions<R, T> = {},
) {
  const { queryKey, ...rest } = options;
  return useQuery<OutputOf<R>, Error, T>({
    queryKey: queryKey ?? resourceKey(resource, call),
    queryFn: ({ signal }) =>
      (callResource as (r: typeof resource, o: CallOptions<R>) => Promise<OutputOf<R>>)(resource, {
        ...call,
        signal,
      } as CallOptions<R>),
    retry: (count, e) => count < 1 && isTransient(e),
    ...rest,
  });
}
