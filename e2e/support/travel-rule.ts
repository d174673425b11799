// The Travel Rule's data the suites' on-chain requests carry (with the default threshold, 0, every on-chain
// request needs it): a made-up beneficiary at a named VASP (lib/ivms101-fixtures.ts), sent with an API
// request, or typed into the request form's fieldset.
import type { Locator } from "@playwright/test";

export { FIXTURE_TRAVEL_RULE as TRAVEL_RULE, FIXTURE_SELF_HOSTED as SELF_HOSTED } from "@/lib/ivms101-fixtures";

/** Fills the request form's Travel Rule fieldset: a natural person at a named VASP (its LEI left out). */
export async function fillTravelRule(form: Locator, vasp = "Example Exchange GmbH"): Promise<void> {
  await form.getByLabel("Family name").fill("Example");
  await form.getByLabel("Given names").fill("Erika");
  await form.getByLabel("Beneficiary's VASP").fill(vasp);
}
