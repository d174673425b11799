// The column builders beside each cell (decimalColumn, timeColumn, idColumn, textColumn, sideColumn) return the
// options of a col.accessor, so a list names its key and only what differs: `col.accessor("price",
// decimalColumn("Price", 160))`. Each lives with its cell so a list loads only the cells it shows; what they
// share is here, importing nothing.
/** What a builder's cell reads of TanStack's cell context. */
export type CellValue<V> = { getValue: () => V };
/** 2 or 3: hidden when the table is too narrow (column-fit.ts); left out, always shown. */
export type ColumnPriority = 2 | 3;
export const ranked = (priority?: ColumnPriority) => (priority ? { priority } : {});

/**
 * A column that only names itself (`label` is both the header and what the toolbar says) and takes its width;
 * `meta` adds the rest (`numeric`, `time`, a priority). The cell is the list's own: `{ ...column("Status", 150),
 * cell }`.
 */
export const column = (
  label: string,
  width: number,
  meta: { numeric?: true; time?: true; priority?: ColumnPriority } = {},
) => ({
  header: label,
  meta: { ...meta, label, width },
});

/** A column filtered by a choice of its values (those of the loaded rows unless `options`), sorted as text. */
export const choiceColumn = (label: string, width: number, options?: readonly string[]) => ({
  header: label,
  meta: { label, width, filter: { kind: "select" as const, ...(options ? { options } : {}) } },
  filterFn: "equalsString" as const,
  sortFn: "text" as const,
});
