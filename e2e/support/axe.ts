// axe, the accessibility check of every page test (serious and critical violations fail a test).
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect } from "./test";

/**
 * The serious and critical violations axe finds on the page, one line each. `colorsOnly`: only the contrast
 * rule, for a page already checked in full in the other theme; the `dark` class changes colours, not the
 * structure the other rules look at (axe over the whole rule set takes seconds on a 2-core CI machine).
 */
export async function seriousViolations(page: Page, { colorsOnly = false } = {}): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  if (colorsOnly) builder.withRules(["color-contrast"]);
  const result = await builder.analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id}: ${v.help} (${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(" "))
          .join(" | ")})`,
    );
}

/**
 * axe in light (every rule) and dark (contrast), the theme set as the toggle sets it (the `dark` class), with
 * a full-page screenshot of each to `shot(scheme)`; leaves the page light.
 */
export async function checkBothSchemes(page: Page, shot: (scheme: "light" | "dark") => string): Promise<void> {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    // Then wait for the colour transitions the switch starts (the sidebar's links fade in 150 ms): axe read a
    // link mid-fade once, light text on a half-dark background, and failed a run on contrast.
    await page.evaluate(async (dark) => {
      document.documentElement.classList.toggle("dark", dark);
      await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined)));
    }, scheme === "dark");
    expect(await seriousViolations(page, { colorsOnly: scheme === "dark" }), scheme).toEqual([]);
    // From the top: a full-page capture after a scroll paints the sticky header mid-page.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: shot(scheme), fullPage: true });
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
}
