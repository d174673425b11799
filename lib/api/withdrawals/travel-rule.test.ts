// The request form's Travel Rule fieldset leaves fields behind when its choices change (a natural person's
// name after switching to a legal person, a VASP after switching to a self-hosted wallet): pruneBlank takes
// out what holds nothing, so what is left is the one choice made, and the schema judges that.
import { describe, expect, it } from "vitest";
import { FIXTURE_SELF_HOSTED } from "@/lib/ivms101-fixtures";
import { pruneBlank, travelRuleInputSchema } from "./travel-rule";

describe("[withdrawals][travel-rule] the form's leftovers", () => {
  it("emptied parents and blank text go; what was typed stays", () => {
    const left = {
      beneficiary: {
        beneficiaryPersons: [
          {
            naturalPerson: { name: { nameIdentifier: [{ primaryIdentifier: "", secondaryIdentifier: " " }] } },
            legalPerson: FIXTURE_SELF_HOSTED.beneficiary.beneficiaryPersons[0]!.legalPerson,
          },
        ],
      },
      beneficiaryVASP: { beneficiaryVASP: { legalPerson: { name: { nameIdentifier: [undefined, {}] } } } },
      selfHostedWallet: FIXTURE_SELF_HOSTED.selfHostedWallet,
    };
    expect(pruneBlank(left)).toEqual(FIXTURE_SELF_HOSTED);
    expect(travelRuleInputSchema.safeParse(pruneBlank(left)).success).toBe(true);
    // Without the pruning the leftovers are refused: a person is one kind, and VASP or wallet, one of them.
    expect(travelRuleInputSchema.safeParse(left).success).toBe(false);
  });

  it("a blank fieldset keeps the choices the form made (name types), so each blank field is named", () => {
    const blank = {
      beneficiary: {
        beneficiaryPersons: [
          { naturalPerson: { name: { nameIdentifier: [{ nameIdentifierType: "LEGL", primaryIdentifier: "" }] } } },
        ],
      },
      beneficiaryVASP: {
        beneficiaryVASP: {
          legalPerson: {
            name: { nameIdentifier: [{ legalPersonNameIdentifierType: "LEGL" }] },
            nationalIdentification: { nationalIdentifierType: "LEIX", nationalIdentifier: "" },
          },
        },
      },
    };
    const r = travelRuleInputSchema.safeParse(pruneBlank(blank));
    expect(r.success ? [] : r.error.issues.map((i) => i.path.join("."))).toEqual([
      "beneficiary.beneficiaryPersons.0.naturalPerson.name.nameIdentifier.0.primaryIdentifier",
      "beneficiaryVASP.beneficiaryVASP.legalPerson.name.nameIdentifier.0.legalPersonName",
    ]);
  });
});
