// Every list Brokerdesk reads from its own database answers a failure of its route the same way as the
// platform's pages do (read-errors.ui.spec.ts): an alert that says the request failed, nothing that looks like
// an empty list, and Retry recovers once the route answers again. The failure is injected at the browser's
// edge (the route's reply is replaced by Brokerdesk's own 500 envelope); Retry then reaches the real server.
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { signIn, type DemoRole } from "./support/staff";
import { rows } from "./support/tables";

type Case = {
  path: string;
  /** The route whose GET fails (its path; any query unless `when` narrows it). */
  api: string;
  /** Which of the route's GETs fail, when the page asks it more than one thing. */
  when?: (url: URL) => boolean;
  role: DemoRole;
  /** What shows the page has its data again. */
  ready: (page: Page) => Locator;
  /** What must not show while the route fails: the words of an empty list. */
  emptyWords?: RegExp;
};

const CASES: Case[] = [
  // The ledger may not have synced a deposit yet: its rows, or the words of a ledger that answered empty.
  {
    path: "/deposits",
    api: "/api/ledger/deposits",
    role: "compliance",
    ready: (p) => rows(p).or(p.getByText(/^Not synced yet: nothing in the ledger so far\./)),
    emptyWords: /No deposits|Not synced yet/,
  },
  { path: "/audit", api: "/api/audit", role: "compliance", ready: (p) => rows(p).first(), emptyWords: /No audit rows/ },
  {
    path: "/sub-accounts",
    api: "/api/sub-accounts/registry",
    role: "broker",
    ready: (p) => rows(p).first(),
    emptyWords: /No sub-accounts/,
  },
  {
    path: "/sync",
    api: "/api/ledger/sync",
    role: "compliance",
    ready: (p) => p.getByRole("table", { name: "Sync jobs" }),
  },
  {
    path: "/admin/users",
    api: "/api/admin/users",
    role: "admin",
    ready: (p) => p.getByRole("table", { name: /^Staff users/ }),
  },
  {
    path: "/risk-units",
    api: "/api/risk-units",
    role: "compliance",
    ready: (p) => p.getByText(/bindings shown, newest first/),
    emptyWords: /No bindings have been made/,
  },
  { path: "/withdrawals", api: "/api/withdrawals/approvers", role: "lead", ready: (p) => p.getByTestId("approvers") },
  // The queue's own question (the ledger and Your requests ask the same route other things).
  {
    path: "/withdrawals",
    api: "/api/withdrawals",
    when: (u) => u.searchParams.get("state") === "requested",
    role: "lead",
    ready: (p) =>
      p
        .getByText("Nothing waits for your decision.")
        .or(p.getByRole("table", { name: "Requests waiting for your decision" })),
    emptyWords: /Nothing waits for your decision/,
  },
];

for (const c of CASES) {
  test(`[own][error] ${c.path}: a failing ${c.api}${c.when ? " (one of its questions)" : ""} shows an alert with Retry, never an empty list; Retry recovers`, async ({
    page,
  }) => {
    await signIn(page, c.role, "/");
    const failing = (url: URL) => url.pathname === c.api && (c.when?.(url) ?? true);
    await page.route(failing, (route) =>
      route.request().method() === "GET"
        ? route.fulfill({ status: 500, json: { error: { code: "internal", message: "Brokerdesk failed (e2e)" } } })
        : route.fallback(),
    );
    await page.goto(c.path);
    const alert = page.getByRole("alert").filter({ hasText: "Request failed (HTTP 500)" });
    await expect(alert.first()).toBeVisible();
    await expect(c.ready(page)).toHaveCount(0);
    if (c.emptyWords) await expect(page.getByText(c.emptyWords)).toHaveCount(0);

    await page.unroute(failing);
    await alert.first().getByRole("button", { name: "Retry" }).click();
    await expect(c.ready(page).first()).toBeVisible();
    await expect(alert).toHaveCount(0);
  });
}
