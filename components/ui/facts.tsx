import type { ComponentProps, ReactNode } from "react";

/**
 * Labelled values as a description list: each label above its value (`layout="stacked"`), or label beside
 * value in two columns (`"beside"`, its cells the list's grid's own). The list's own attributes (its grid, a
 * test id) pass through; `term` and `detail` are the classes of its labels and values.
 */
export function Facts({
  items,
  layout,
  term,
  detail,
  item,
  ...list
}: ComponentProps<"dl"> & {
  items: readonly (readonly [string, ReactNode])[];
  layout: "stacked" | "beside";
  term: string;
  detail?: string;
  /** Each pair's wrapper (stacked only). */
  item?: string;
}) {
  return (
    <dl {...list}>
      {items.map(([k, v]) => (
        <div key={k} className={layout === "beside" ? "contents" : item}>
          <dt className={term}>{k}</dt>
          <dd className={detail}>{v}</dd>
        </div>
      ))}
    </dl>
  );
}
