// Every read page answers a failing platform the same way (one table-driven spec instead
// of a copy per page): the platform's code and message in an alert, no rows, and Retry recovers once the
// platform answers again. The faults are the embedded simulator's (server/simulator/README.md).
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { signIn, simControlUrl, type DemoRole } from "./support/staff";
import { rows } from "./support/tables";

type Case = {
  path: string;
  operation: string;
  role: DemoRole;
  /** 500 with the platform's envelope (code 50000) or a gateway's bare 503. */
  status: 500 | 503;
  /** What shows the page has data again. */
  ready: (page: Page) => Locator;
};

const CASES: Case[] = [
  { path: "/assets", operation: "subaccounts.assets", role: "compliance", status: 500, ready: (p) => rows(p).first() },
  { path: "/rebates", operation: "rebates.get", role: "lead", status: 500, ready: (p) => p.getByTestId("rebate-info") },
  {
    path: "/spot/plan-orders/live",
    operation: "planOrders.history",
    role: "broker",
    status: 503,
    ready: (p) => rows(p).first(),
  },
  { path: "/spot/fills/live", operation: "fills.list", role: "admin", status: 500, ready: (p) => rows(p).first() },
  {
    path: "/market/trades",
    operation: "market.trades",
    role: "compliance",
    status: 500,
    ready: (p) => rows(p).first(),
  },
  {
    path: "/futures/oi-limits",
    operation: "oiLimits.list",
    role: "compliance",
    status: 503,
    ready: (p) => rows(p).first(),
  },
  {
    path: "/deposits/live",
    operation: "deposits.list",
    role: "compliance",
    status: 500,
    ready: (p) => rows(p).first(),
  },
];

for (const c of CASES) {
  test(`[${c.operation}][error] ${c.path}: a platform ${c.status} shows its code${c.status === 500 ? " and message" : ""}, no rows; Retry recovers`, async ({
    page,
  }) => {
    await signIn(page, c.role, "/");
    const rule = { path: c.operation, kind: "status", status: c.status, count: 10 };
    expect((await page.request.post(simControlUrl("faults"), { data: rule })).ok()).toBe(true);
    try {
      await page.goto(c.path);
      const alert = page.getByRole("alert").filter({ hasText: "Platform error" });
      await expect(alert).toContainText(c.status === 500 ? "Platform error 50000: System busy" : "Platform error 503");
      await expect(rows(page)).toHaveCount(0);
    } finally {
      expect((await page.request.delete(simControlUrl("faults"))).ok()).toBe(true);
    }
    const alert = page.getByRole("alert").filter({ hasText: "Platform error" });
    await alert.getByRole("button", { name: "Retry" }).click();
    await expect(c.ready(page)).toBeVisible();
    await expect(alert).toHaveCount(0);
  });
}
