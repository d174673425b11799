// Words for staff, not for developers, in Chromium: forms and error states say fields by their
// words, the platform's refusals say what they mean without naming Brokerdesk's operations or the simulator,
// and the sub-account page says where its sections come from in words.
import { expect, test } from "./support/test";
import { chooseSubAccount } from "./support/picker";
import { textRoom } from "./support/text-room";
import { subUid } from "./support/faults";
import { sameOrigin, signInApi, signIn } from "./support/staff";

const DEV_WORDS = /subaccountName|subUid|was refused by the platform|\(sim\)|\bE\d{1,2} ·/;

test("[subaccounts.create][words] an empty or taken name is said in words; focus goes to the first error, then to the result", async ({
  page,
}) => {
  await signIn(page, "broker", "/sub-accounts");
  const form = page.getByRole("region", { name: "Create sub-account" });
  await expect(form).not.toContainText(/\(E6\)/);
  await form.getByRole("button", { name: "Create sub-account" }).click();
  const name = form.getByLabel("Name (e-mail form)");
  await expect(form.getByText("Name is required", { exact: true })).toBeVisible();
  await expect(name).toBeFocused();
  await expect(form).not.toContainText(DEV_WORDS);

  // Taken: the registry knows it; said on the field, which gets the focus.
  const subs = (await (await page.request.get("/api/sub-accounts")).json()) as {
    items: { subaccountName: string | null }[];
  };
  const taken = subs.items.find((s) => s.subaccountName)!.subaccountName!;
  await name.fill(taken.toUpperCase());
  await form.getByRole("button", { name: "Create sub-account" }).click();
  await expect(form.getByText(/already exists .*names are unique/)).toBeVisible();
  await expect(name).toBeFocused();

  // Created: the result takes the focus, so a screen reader and the keyboard land on it.
  await name.fill(`words-${Date.now()}@example.com`);
  await form.getByRole("button", { name: "Create sub-account" }).click();
  const result = form.getByText(/^Created words-/);
  await expect(result).toBeVisible();
  await expect(page.locator(":focus")).toContainText(/Created words-/);

  // Sent again with a value the form refuses: the success is no longer what the form says.
  await name.fill("not-an-email");
  await form.getByRole("button", { name: "Create sub-account" }).click();
  await expect(form.getByText("Name must be in e-mail form, e.g. desk01@example.com", { exact: true })).toBeVisible();
  await expect(result).toHaveCount(0);
  await expect(name).toBeFocused();
});

test("[words] a refusal's words name no operation, no simulator and no raw field; no Retry where it cannot help", async ({
  page,
}) => {
  await signIn(page, "compliance", "/rebates?uid=12345");
  const alert = page.getByRole("alert").filter({ hasText: "Platform error" });
  await expect(alert).toContainText("Platform error 40034");
  await expect(alert).toContainText("An identifier was not found.");
  await expect(alert).not.toContainText(DEV_WORDS);
  await expect(alert).not.toContainText("rebates.get");
  await expect(alert.getByRole("button", { name: "Retry" })).toHaveCount(0);

  // A sub-account's page says where each section comes from in words, not in operation codes.
  const uid = await subUid(page.request, "desk01");
  await page.goto(`/sub-accounts/${uid}`);
  await expect(page.getByRole("heading", { name: "Spot assets" })).toBeVisible();
  await expect(page.getByRole("main")).not.toContainText(DEV_WORDS);
  await expect(page.getByRole("main")).toContainText("From the platform");
});

test("[words][auth] someone whose session ended because they were disabled, or their password was reset, is told so at sign-in", async ({
  browser,
  playwright,
  baseURL,
}) => {
  const admin = await playwright.request.newContext({ baseURL });
  await signInApi(admin, "admin");
  const make = async (tag: string) => {
    const email = `${tag}-${Date.now()}@example.com`;
    const res = await admin.post("/api/admin/users", {
      headers: sameOrigin(baseURL),
      data: { email, name: tag, role: "compliance", password: "a-long-enough-password" },
    });
    expect(res.status(), await res.text()).toBe(200);
    const { users } = (await (await admin.get("/api/admin/users")).json()) as {
      users: { id: string; email: string }[];
    };
    return { email, id: users.find((u) => u.email === email)!.id };
  };
  const signedIn = async (email: string) => {
    const page = await (await browser.newContext()).newPage();
    await page.goto("/login");
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password").fill("a-long-enough-password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByTestId("session-user")).toContainText(email, { timeout: 20_000 });
    return page;
  };

  // Disabled: the next page they open sends them to sign in, which says why.
  const gone = await make("disabled");
  const one = await signedIn(gone.email);
  expect(
    (
      await admin.patch(`/api/admin/users/${gone.id}`, { headers: sameOrigin(baseURL), data: { disabled: true } })
    ).status(),
  ).toBe(200);
  await one.goto("/withdrawals");
  await expect(one).toHaveURL(/\/login/);
  await expect(one.getByTestId("session-ended")).toHaveText(/an administrator disabled your account/);

  // Password reset: the browser's own session check finds it ended (next-auth clears the cookie in that
  // answer), and sign-in still says why.
  const reset = await make("reset");
  const two = await signedIn(reset.email);
  expect(
    (
      await admin.post(`/api/admin/users/${reset.id}/one-time-password`, { headers: sameOrigin(baseURL), data: {} })
    ).status(),
  ).toBe(200);
  expect(
    await two.evaluate(
      async () => ((await (await fetch("/api/auth/session")).json()) as { user?: unknown }).user ?? null,
    ),
  ).toBeNull();
  await two.goto("/login");
  await expect(two.getByTestId("session-ended")).toHaveText(/an administrator reset your password/);
  // Someone who simply signs in sees no such note.
  const fresh = await (await browser.newContext()).newPage();
  await fresh.goto("/login");
  await expect(fresh.getByTestId("session-ended")).toHaveCount(0);
  await admin.dispose();
});

test("[words][address-book] rejecting a destination asks for the reason in the reject dialog, not a browser prompt", async ({
  page,
  browser,
  playwright,
  baseURL,
}) => {
  const broker = await playwright.request.newContext({ baseURL });
  await signInApi(broker, "broker");
  const desk = await subUid(broker, "desk05");
  const label = `Reject me ${Date.now()}`;
  const asked = await broker.post("/api/withdrawals/destinations", {
    headers: sameOrigin(baseURL),
    data: { subUid: desk, dest: "on_chain", chain: "TRC20", address: "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE", label },
  });
  expect(asked.status(), await asked.text()).toBe(200);

  const prompts: string[] = [];
  page.on("dialog", (d) => {
    prompts.push(d.message());
    void d.dismiss();
  });
  await signIn(page, "lead", "/withdrawals");
  const book = page.getByRole("region", { name: "Address book" });
  await chooseSubAccount(book, desk);
  await book.getByRole("button", { name: `Reject ${label}` }).click();
  const dialog = page.getByRole("dialog", { name: "Reject this destination" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Reason for rejecting")).toBeFocused();
  await dialog.getByRole("button", { name: "Reject" }).click();
  await expect(dialog.getByText(/^Reason must be at least 3 characters/)).toBeVisible();
  await dialog.getByLabel("Reason for rejecting").fill("not a known client wallet");
  await dialog.getByRole("button", { name: "Reject" }).click();
  await expect(dialog).toBeHidden();
  await expect(book.locator("li", { hasText: label })).toContainText("not a known client wallet");
  expect(prompts).toEqual([]);
  await broker.dispose();
  void browser;
});

test("[words][labels] a refused field is said by its own label: the address book and the request form's recipient UID", async ({
  page,
}) => {
  await signIn(page, "broker", "/withdrawals");
  const book = page.getByRole("region", { name: "Address book" });
  await book.getByRole("button", { name: "Add to the book" }).click();
  // Not "Sub-account UID must be a numeric ID" nor "Label is required".
  await expect(book.getByText("Sub-account is required", { exact: true })).toBeVisible();
  await expect(book.getByText("Name in the book is required", { exact: true })).toBeVisible();
  // At 1,280 px the Kind select shows its longer choice whole (six fields in a row cut it).
  expect(page.viewportSize()?.width).toBe(1280);
  const kind = book.getByLabel("Kind", { exact: true });
  await kind.selectOption("internal_transfer");
  expect(await textRoom(kind, "selected")).toBeGreaterThanOrEqual(0);
  await kind.selectOption("on_chain");

  const form = page.getByRole("region", { name: "Request a withdrawal" });
  await form.getByRole("button", { name: "Request withdrawal" }).click();
  await expect(form.getByText("Sub-account is required", { exact: true })).toBeVisible();
  // The address rule for a transfer (a numeric UID) is said under the field's label for it.
  await chooseSubAccount(form, await subUid(page.request, "desk01"));
  await form.getByLabel("Destination", { exact: true }).selectOption("internal_transfer");
  await form.getByLabel("Recipient UID").fill("desk02");
  await form.getByLabel(/^Amount/).fill("0.1");
  await form.getByLabel("Reason").fill("e2e words");
  await form.getByRole("button", { name: "Request withdrawal" }).click();
  await expect(form.getByText(/^Recipient UID must be a numeric UID/)).toBeVisible();
});
