import type { Locator, Page } from "@playwright/test";

/** A table's data rows: DataTable and ListTable mark each with data-row-id. In the page, or in one region of it. */
export const rows = (scope: Page | Locator): Locator => scope.locator("tbody tr[data-row-id]");
