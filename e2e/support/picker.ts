// The one sub-account picker (components/ui/subaccount-picker.tsx) as staff use it: type the UID, wait for
// the server's answer to list it alone, and take it with Enter.
import type { Locator, Page } from "@playwright/test";
import { expect } from "./test";

export async function chooseSubAccount(scope: Page | Locator, uid: string, label = "Sub-account"): Promise<void> {
  const picker = scope.getByRole("combobox", { name: label, exact: true });
  await picker.fill(uid);
  await expect(
    scope.getByRole("listbox", { name: "Sub-accounts" }).getByRole("option", { name: new RegExp(`\\(${uid}\\)$`) }),
  ).toHaveCount(1);
  await picker.press("Enter");
  await expect(picker).toHaveValue(new RegExp(`\\(${uid}\\)$`));
}
