// The risk-unit bind form's UID picker: the registry searched on the server as one types, by
// name; after a submit the focus is on the first refused field, then on the answer (FormOutcome).
import { expect, test } from "./support/test";
import { sameOrigin, signInApi, signIn, simControlUrl } from "./support/staff";

const bindForm = (page: import("@playwright/test").Page) =>
  page.getByRole("region", { name: "Bind a UID", exact: true });

test("[riskUnits.bind][ui] the UID is picked by name from the server's search; the focus goes to the first refused field, then to the answer", async ({
  page,
  request,
  baseURL,
}) => {
  await signInApi(request, "broker");
  // The demo risk-unit key's account (server/simulator/README.md).
  const unit = ((await (await request.get(simControlUrl("keys"))).json()) as { riskUnit: { uid: string } }).riskUnit
    .uid;
  await signIn(page, "broker", "/risk-units");
  await expect(page.getByRole("heading", { level: 1, name: "Risk units" })).toBeVisible();
  const form = bindForm(page);
  const picker = form.getByRole("combobox", { name: "Sub-account UID" });
  await form.getByRole("button", { name: "Bind" }).click();
  await expect(picker).toHaveAttribute("aria-invalid", "true");
  await expect(picker).toBeFocused();

  await picker.fill("DESK12");
  const option = form
    .getByRole("listbox", { name: "Sub-accounts" })
    .getByRole("option", { name: /^desk12@\S+ \(\d+\)$/ });
  await expect(option).toHaveCount(1);
  const uid = /\((\d+)\)$/.exec((await option.textContent())!)![1]!;
  await picker.press("Enter");
  await expect(picker).toHaveValue(new RegExp(`^desk12@\\S+ \\(${uid}\\)$`));
  await form.getByLabel("Risk unit ID").fill(unit);
  const sent = page.waitForRequest((r) => new URL(r.url()).pathname === "/api/risk-units" && r.method() === "POST");
  await form.getByRole("button", { name: "Bind" }).click();
  expect((await sent).postDataJSON()).toEqual({ uid, riskUnitId: unit, operate: "bind" });
  const answer = form.getByRole("status").filter({ hasText: `Bound UID ${uid} to risk unit ${unit}.` });
  await expect(answer).toBeFocused();

  // Left as found: the tests after this one count the unit's UIDs.
  const undone = await request.post("/api/risk-units", {
    headers: sameOrigin(baseURL),
    data: { uid, riskUnitId: unit, operate: "unbind" },
  });
  expect(undone.status(), await undone.text()).toBe(200);
});
