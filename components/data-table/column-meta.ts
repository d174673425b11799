// What a column says about itself to the shared table, toolbar and column fit (TanStack's `meta`); apart from
// ./features so that the feature sets can name it without importing the module that names them.
export type ColumnFilterMeta =
  | {
      kind: "select";
      /** Fixed choices; without them the toolbar offers the values in the loaded rows. */ options?: readonly string[];
    }
  | { kind: "text"; placeholder?: string };

export type DataTableColumnMeta = {
  /** Header text, also used by the column menu and the filter labels. */
  label: string;
  /** Right-aligned tabular figures (amounts, prices, sizes). */
  numeric?: boolean;
  /** Width in px: the virtualised body needs a fixed layout so columns do not jump while scrolling. */
  width?: number;
  /** Holds times (TimeCell): wider in local time, whose offset ("UTC+05:30") is longer than "UTC". */
  time?: boolean;
  /** 1 (or none): always shown; 2: hidden when the table is too narrow; 3: hidden first (column-fit.ts). */
  priority?: 1 | 2 | 3;
  filter?: ColumnFilterMeta;
};
