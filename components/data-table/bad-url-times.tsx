"use client";
// A time typed into a link by hand that is no time (`?from=yesterday`) leaves the list unbounded on that end:
// said above the list, naming the value, rather than dropped without a word.
import { useSearchParams } from "next/navigation";
import { Notice } from "@/components/ui/notice";
import { parseUrlTime } from "@/lib/client/paging-search-params";

/** `keys`: the URL keys of the range's two ends, with their labels ("from" → "From"). */
export function BadUrlTimes({ keys }: { keys: readonly (readonly [key: string, label: string])[] }) {
  const params = useSearchParams();
  const bad = keys.flatMap(([key, label]) => {
    const value = params.get(key);
    return value && parseUrlTime(value) === null ? [`${label} as “${value}”`] : [];
  });
  if (!bad.length) return null;
  const one = bad.length === 1;
  return (
    <Notice tone="warn">
      The link gives {bad.join(" and ")}, which {one ? "is not a time" : "are not times"}, so{" "}
      {one ? "it is" : "they are"} left out. A time in a link is in milliseconds or ISO 8601, read in UTC: 2026-11-01 or
      2026-11-01T09:30.
    </Notice>
  );
}
