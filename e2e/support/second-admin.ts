// A second admin for the stories that need two (a policy's publication, a key's approval): made by the first admin,
// who takes no part after, its account taken over with its own password, an authenticator app enrolled in the
// browser. Then, once its factor has gone stale, the action that asks for it again is answered with a new code.
import type { Browser, Page, PlaywrightWorkerArgs } from "@playwright/test";
import { generate } from "otplib";
import { sameOrigin, takeOverAccount } from "./staff";
import { expect } from "./test";

export type SecondAdmin = { page: Page; secret: string; step: number; enrolledAt: number };
type Who = { email: string; first: string; own: string };

/** Made by `admin` (a signed-in page), signed in on a page of its own with an app enrolled. */
export async function secondAdminWithApp(
  browser: Browser,
  playwright: PlaywrightWorkerArgs["playwright"],
  baseURL: string,
  admin: Page,
  who: Who,
): Promise<SecondAdmin> {
  const made = await admin.request.post("/api/admin/users", {
    headers: sameOrigin(baseURL),
    data: { email: who.email, name: "Second Admin", role: "admin", password: who.first },
  });
  expect(made.status(), await made.text()).toBe(200);
  const takeOver = await playwright.request.newContext({ baseURL });
  await takeOverAccount(takeOver, baseURL, who.email, who.first, who.own);
  await takeOver.dispose();
  const page = await (await browser.newContext({ baseURL })).newPage();
  await page.goto("/login?callbackUrl=%2Faccount%2Fsecurity");
  await page.getByLabel("E-mail").fill(who.email);
  await page.getByLabel("Password").fill(who.own);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByTestId("session-user")).toContainText(who.email, { timeout: 20_000 });
  await page.getByRole("button", { name: "Set up an authenticator app" }).click();
  const secret = (await page.getByTestId("totp-secret").textContent())?.trim() ?? "";
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const step = Math.floor(Date.now() / 30_000);
  await page.getByLabel("Code from the app").fill(await generate({ secret, epoch: step * 30 + 1 }));
  await page.getByRole("button", { name: "Confirm the app" }).click();
  await page.getByRole("button", { name: "I have saved these codes" }).click();
  return { page, secret, step, enrolledAt: Date.now() };
}

/** Waits until the factor verified at enrolment is older than MFA_FRESH_SECONDS (and a second more). */
export async function untilFactorStale(s: SecondAdmin, freshSeconds: number): Promise<void> {
  await new Promise((r) => setTimeout(r, Math.max(0, s.enrolledAt + freshSeconds * 1000 + 1_000 - Date.now())));
}

/** Answers the prompt an action raised with a code of a step after the enrolment's (a code is used once). */
export async function answerFactorPrompt(s: SecondAdmin): Promise<void> {
  const prompt = s.page.getByRole("dialog", { name: "Verify your second factor" });
  await expect(prompt).toBeVisible();
  const step = Math.max(s.step + 1, Math.floor(Date.now() / 30_000));
  await prompt
    .getByLabel("Code from your authenticator app")
    .fill(await generate({ secret: s.secret, epoch: step * 30 + 1 }));
  await prompt.getByRole("button", { name: "Verify" }).click();
}
